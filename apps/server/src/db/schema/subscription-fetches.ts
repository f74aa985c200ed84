import { bigint, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { deviceSlots } from './device-slots.ts';

/** Every fetch of a slot's subscription link: when, from where, by which app. */
export const subscriptionFetches = pgTable(
  'subscription_fetches',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    slotId: uuid('slot_id')
      .notNull()
      .references(() => deviceSlots.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    // The format served (clash, sing-box, base64, sip008, page).
    format: text('format').notNull(),
  },
  (table) => [index('subscription_fetches_slot_idx').on(table.slotId, table.at)],
);
