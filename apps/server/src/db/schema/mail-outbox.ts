import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { MAIL_STATUSES, type MailStatus } from '@skyway/shared/mail';
import { users } from './users.ts';

export { MAIL_STATUSES, type MailStatus };
/** The message reached its recipient, or the log that stands in for SMTP. */
export const DELIVERED_STATUSES = ['sent', 'logged'] as const satisfies readonly MailStatus[];

/** Every message the site sends, and its delivery queue: the retry job claims due `pending` rows. */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    to: text('to').notNull(),
    // Which template, e.g. code_register, password_changed.
    template: text('template').notNull(),
    language: text('language').notNull(),
    subject: text('subject').notNull(),
    // Null once a code mail is delivered or expired: no code is kept in clear.
    text: text('text'),
    html: text('html'),
    // The account the message is about, where a job needs to know it arrived (inactive-account warnings).
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    // Lower goes first: 0 codes (someone is waiting at a form), 1 notices, 2 warnings.
    priority: smallint('priority').notNull().default(1),
    status: text('status').$type<MailStatus>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    // While in the future, one instance is delivering the row and no other may claim it.
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    // A code mail's code stops working then: the message is not delivered past it.
    codeExpiresAt: timestamp('code_expires_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    // When it was delivered: SMTP accepted it, or (without SMTP) it was written to the log.
    sentAt: timestamp('sent_at', { withTimezone: true }),
    // The latest attempt's failure.
    error: text('error'),
    // Reminders and notices: where the recipient unsubscribes (List-Unsubscribe); null for account mail.
    unsubscribeUrl: text('unsubscribe_url'),
    // An expiry reminder: the end of access it is about. Not delivered once the account's end is
    // another (it renewed, or staff changed its time, while the reminder waited).
    aboutEnd: timestamp('about_end', { withTimezone: true }),
  },
  (table) => [
    // Claims (pending, in the claim's whole order: a backlog due at one moment, as SMTP's return
    // leaves it, is then read a few rows at a time, not sorted whole for each claim) and the
    // backlog and failure counts.
    index('mail_outbox_queue_idx').on(table.status, table.priority, table.nextAttemptAt, table.createdAt),
    // The back office's outbox, newest first, whole or for one address.
    index('mail_outbox_created_idx').on(table.createdAt.desc().nullsFirst(), table.id.desc().nullsFirst()),
    index('mail_outbox_to_idx').on(sql`lower(${table.to})`, table.createdAt.desc().nullsFirst()),
    // The attention queue: mail given up on, newest first.
    index('mail_outbox_failed_idx')
      .on(table.createdAt)
      .where(sql`${table.status} = 'failed'`),
    index('mail_outbox_user_idx')
      .on(table.userId)
      .where(sql`${table.userId} is not null`),
    check('mail_outbox_pending_has_body', sql`${table.status} <> 'pending' or ${table.text} is not null`),
  ],
);

export type MailOutboxRow = typeof mailOutbox.$inferSelect;
