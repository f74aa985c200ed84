import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Every message the site sends; without SMTP it is only written here (and to the log). */
export const mailOutbox = pgTable('mail_outbox', {
  id: uuid('id').primaryKey().defaultRandom(),
  to: text('to').notNull(),
  // Which template, e.g. code_register, password_changed.
  template: text('template').notNull(),
  language: text('language').notNull(),
  subject: text('subject').notNull(),
  text: text('text').notNull(),
  html: text('html').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  // Set when SMTP accepted it; stays null when no SMTP is configured.
  sentAt: timestamp('sent_at', { withTimezone: true }),
  error: text('error'),
});

export type MailOutboxRow = typeof mailOutbox.$inferSelect;
