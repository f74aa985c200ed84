import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** One-time e-mail codes, bound to (address, scene); only a hash of the code is kept. */
export const emailCodes = pgTable(
  'email_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    // Lower-cased address the code was sent to.
    email: text('email').notNull(),
    // register | forget | email
    scene: text('scene').notNull(),
    codeHash: text('code_hash').notNull(),
    // Client address that asked for it, for the per-address daily cap.
    requestIp: text('request_ip').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    // Guesses used, right or wrong; at 5 the code is void.
    attempts: integer('attempts').notNull().default(0),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
  },
  (table) => [
    index('email_codes_email_scene_idx').on(table.email, table.scene, table.createdAt),
    index('email_codes_ip_idx').on(table.requestIp, table.createdAt),
  ],
);

export type EmailCodeRow = typeof emailCodes.$inferSelect;
