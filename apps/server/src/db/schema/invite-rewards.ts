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
  (table) => [index('invite_rewards_inviter_idx').on(table.inviterId, table.createdAt)],
);

export type InviteRewardRow = typeof inviteRewards.$inferSelect;
