import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  pgSequence,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/** Every change to a slot takes the next revision: nodes read the changes since the one they hold. */
export const slotRevisions = pgSequence('device_slot_revisions');

/**
 * Each connection a customer pays for is a slot (PRODUCT.md section 6): its own credential for the
 * proxies (a UUID, and a secret for Trojan and Shadowsocks 2022) and its own subscription link. A
 * slot is active while the account has access and the slot's position is within its connections;
 * the rows stay when it is not, so that its name and link come back with the access.
 */
export const deviceSlots = pgTable(
  'device_slots',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    // A stable integer naming the slot to node programs that take only integer user ids (V2bX,
    // XrayR: the UniProxy compatibility routes), mapped back to the slot when they report traffic.
    number: bigint('number', { mode: 'number' }).generatedAlwaysAsIdentity(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    // 1 … N: the slots kept when the connections go down are the lowest; the customer may reorder them.
    position: integer('position').notNull(),
    name: text('name'),
    platform: text('platform'),
    // The device our own apps bound to the slot (their `x-hwid` header); null: free for them.
    hwid: text('hwid'),
    // The proxies' credential: VLESS / VMess id, and the Trojan password / Shadowsocks 2022 key.
    credential: uuid('credential').notNull(),
    secret: text('secret').notNull(),
    // SHA-256 of the subscription token; the token itself is derived from the slot and `tokenVersion`
    // with the server's subscription key (never stored), so the console can show the link again.
    // Null until the link is first shown (the access module makes slots without knowing the key).
    tokenHash: text('token_hash'),
    tokenVersion: integer('token_version').notNull().default(1),
    active: boolean('active').notNull(),
    revision: bigint('revision', { mode: 'number' })
      .notNull()
      .default(sql`nextval('device_slot_revisions')`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastFetchAt: timestamp('last_fetch_at', { withTimezone: true }),
    // One device at a time: the source addresses the nodes refuse this credential from, because
    // another address holds it (devices/presence.ts), and since when; empty and null otherwise.
    refusedAddresses: text('refused_addresses')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    refusedSince: timestamp('refused_since', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('device_slots_user_position_key').on(table.userId, table.position),
    uniqueIndex('device_slots_credential_key').on(table.credential),
    uniqueIndex('device_slots_hwid_key')
      .on(table.userId, table.hwid)
      .where(sql`${table.hwid} is not null`),
    uniqueIndex('device_slots_token_key').on(table.tokenHash),
    uniqueIndex('device_slots_number_key').on(table.number),
    // What changed since a revision (the nodes' credential list).
    index('device_slots_revision_idx').on(table.revision),
    // The slots job: active slots, to find those whose access has lapsed.
    index('device_slots_active_idx')
      .on(table.userId)
      .where(sql`${table.active}`),
  ],
);

export type DeviceSlotRow = typeof deviceSlots.$inferSelect;

/**
 * Where a slot's credential is live from, as the nodes report it (devices/presence.ts): one row per
 * source address, with when it was first seen in its current run of sightings, and last seen. An
 * address unseen for longer than the liveness window starts a new run when it comes back.
 */
export const slotAddresses = pgTable(
  'slot_addresses',
  {
    slotId: uuid('slot_id')
      .notNull()
      .references(() => deviceSlots.id, { onDelete: 'cascade' }),
    address: text('address').notNull(),
    // ISO 3166 country of the address (offline lookup); null for private networks and unknowns.
    country: text('country'),
    firstSeenAt: timestamp('first_seen_at', { withTimezone: true }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.slotId, table.address] })],
);

export type SlotAddressRow = typeof slotAddresses.$inferSelect;
