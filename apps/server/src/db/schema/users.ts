import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  index,
  integer,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

export const users = pgTable(
  'users',
  {
    // Also the app-store appAccountToken, so it is a UUID.
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    passwordHash: text('password_hash'),
    language: text('language').notNull().default('en'),
    inviteCode: text('invite_code').notNull(),
    // Who invited this account (registration with their invite code), if anyone.
    invitedBy: uuid('invited_by').references((): AnyPgColumn => users.id, { onDelete: 'set null' }),
    expireAt: timestamp('expire_at', { withTimezone: true }),
    subscribeType: smallint('subscribe_type').notNull().default(1),
    connections: integer('connections').notNull().default(1),
    // A downgrade bought while access was active: these connections apply from pending_from on.
    pendingConnections: integer('pending_connections'),
    pendingFrom: timestamp('pending_from', { withTimezone: true }),
    autoRenew: boolean('auto_renew').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
    // The inactive-accounts job: when it warned this account, and when it revoked it.
    inactiveWarnedAt: timestamp('inactive_warned_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    // The account asked for no more reminders and notices by mail (List-Unsubscribe); account mail
    // (codes, changes to the account) still goes out.
    mailOptOutAt: timestamp('mail_opt_out_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('users_email_key').on(sql`lower(${table.email})`),
    uniqueIndex('users_invite_code_key').on(table.inviteCode),
    // An inviter's list, newest first, a page at a time; its count reads this index alone. Nulls first, as
    // the list's `order by … desc` sorts them, or PostgreSQL would sort the entries again.
    index('users_invited_by_idx').on(
      table.invitedBy,
      table.createdAt.desc().nullsFirst(),
      table.id.desc().nullsFirst(),
    ),
    // The inactive-accounts job reads these two, not the whole table: the accounts it may warn,
    // longest without a sign-in first, and those it warned, whose warning it cancels or carries out.
    index('users_inactive_idx')
      .on(sql`greatest(${table.lastLoginAt}, ${table.createdAt})`, table.id)
      .where(sql`${table.revokedAt} is null and ${table.inactiveWarnedAt} is null`),
    index('users_inactive_warned_idx')
      .on(table.inactiveWarnedAt)
      .where(sql`${table.revokedAt} is null and ${table.inactiveWarnedAt} is not null`),
    // The back office: every account newest first, and a search by any part of the address
    // (trigrams; pg_trgm ships with PostgreSQL and with PGlite).
    index('users_created_at_idx').on(table.createdAt.desc().nullsFirst(), table.id.desc().nullsFirst()),
    index('users_email_trgm_idx').using('gin', sql`lower(${table.email}) gin_trgm_ops`),
    // The dashboard's subscribers with access now, by type, and the renewals due, from this index alone.
    index('users_expire_at_idx').on(table.expireAt, table.subscribeType),
  ],
);

export type UserRow = typeof users.$inferSelect;
