import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/** Operator settings (open_trial, trial_minute, …); a missing key takes its default from the code. */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** One row per account that claimed the free trial: the primary key makes "once" the database's rule. */
export const trialClaims = pgTable('trial_claims', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  minutes: integer('minutes').notNull(),
  claimedAt: timestamp('claimed_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Minutes an inviter earned when an invited account completed registration; claimed by withdraw. */
export const inviteRewards = pgTable(
  'invite_rewards',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    inviterId: uuid('inviter_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    // One reward per invited account, ever.
    inviteeId: uuid('invitee_id')
      .notNull()
      .unique()
      .references(() => users.id, { onDelete: 'cascade' }),
    minutes: integer('minutes').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
  },
  (table) => [index('invite_rewards_inviter_idx').on(table.inviterId, table.createdAt)],
);

/** Every change to an account's expiry: why, by how much, from what to what. */
export const expiryLedger = pgTable(
  'expiry_ledger',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    // trial | invite_reward | purchase | …
    reason: text('reason').notNull(),
    // What caused it, when there is a record of its own (an order id for a purchase).
    ref: text('ref'),
    // The change of the remaining time, from max(now, from_expire_at); negative when an upgrade converts it.
    seconds: integer('seconds').notNull(),
    // The connections from then on.
    connections: integer('connections'),
    fromExpireAt: timestamp('from_expire_at', { withTimezone: true }),
    toExpireAt: timestamp('to_expire_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('expiry_ledger_user_idx').on(table.userId, table.createdAt)],
);

export type InviteRewardRow = typeof inviteRewards.$inferSelect;
export type ExpiryLedgerRow = typeof expiryLedger.$inferSelect;
