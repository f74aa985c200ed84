import { sql } from 'drizzle-orm';
import { index, integer, pgTable, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

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
  (table) => [
    index('invite_rewards_inviter_idx').on(table.inviterId, table.createdAt),
    // What an inviter has to withdraw (the list's summary, withdraw itself), read from this index alone.
    index('invite_rewards_unclaimed_idx')
      .on(table.inviterId, table.minutes)
      .where(sql`${table.claimedAt} is null`),
  ],
);

export type InviteRewardRow = typeof inviteRewards.$inferSelect;
