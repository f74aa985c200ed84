import { index, integer, pgTable, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/** One row per account that claimed the free trial: the primary key makes "once" the database's rule. */
export const trialClaims = pgTable(
  'trial_claims',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    minutes: integer('minutes').notNull(),
    claimedAt: timestamp('claimed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // The dashboard's trials by the time they were claimed.
  (table) => [index('trial_claims_claimed_at_idx').on(table.claimedAt)],
);
