import { sql } from 'drizzle-orm';
import { pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

/**
 * Incidents staff are alerted to (PRODUCT.md section 11), open until what raised them ends: a node
 * not heard from (its id in `subject`), a queue stuck. At most one open incident per kind and
 * subject, so each is alerted once, and its end once.
 */
export const alertIncidents = pgTable(
  'alert_incidents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').notNull(),
    subject: text('subject').notNull().default(''),
    // What staff read: the node's name, the queue's.
    label: text('label').notNull(),
    openedAt: timestamp('opened_at', { withTimezone: true }).notNull(),
    closedAt: timestamp('closed_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('alert_incidents_open_key')
      .on(table.kind, table.subject)
      .where(sql`${table.closedAt} is null`),
  ],
);

export type AlertIncidentRow = typeof alertIncidents.$inferSelect;
