import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  pgTable,
  smallint,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { staff } from './staff.ts';
import { users } from './users.ts';

/**
 * The site's Telegram bot (PRODUCT.md section 11): one row or none. `sealedToken` holds the bot's
 * token and the webhook's secret, sealed with SECRETS_KEY like a gateway's keys; the worker lease
 * lets one instance at a time poll for updates and send the queue.
 */
export const telegramBot = pgTable(
  'telegram_bot',
  {
    id: smallint('id').primaryKey().default(1),
    sealedToken: text('sealed_token').notNull(),
    // The bot's @username, from getMe when the token was saved: the deep links name it.
    username: text('username').notNull(),
    // Which instance works the bot (polls and sends) until `workerLeaseUntil`.
    workerId: text('worker_id'),
    workerLeaseUntil: timestamp('worker_lease_until', { withTimezone: true }),
    // Long polling: the next update to ask for (getUpdates' offset), so that no update is handled twice.
    updateOffset: bigint('update_offset', { mode: 'number' }).notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [check('telegram_bot_single_row', sql`${table.id} = 1`)],
);

/** A customer's account bound to a Telegram chat: at most one chat per account and one account per chat. */
export const telegramLinks = pgTable('telegram_links', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  chatId: bigint('chat_id', { mode: 'number' }).notNull().unique(),
  // The customer takes reminders and notices by Telegram alone: no mail of those kinds.
  mailOff: boolean('mail_off').notNull().default(false),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Staff members' chats for their alerts: one chat per member and one member per chat. Apart from
 * `telegram_links`, as a member may also be a customer bound from the same chat.
 */
export const telegramStaffLinks = pgTable('telegram_staff_links', {
  staffId: uuid('staff_id')
    .primaryKey()
    .references(() => staff.id, { onDelete: 'cascade' }),
  chatId: bigint('chat_id', { mode: 'number' }).notNull().unique(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * One-time deep-link tokens, kept as their sha-256: valid 10 minutes, used once. Each binds either a
 * customer's account (`user_id`) or a staff member (`staff_id`).
 */
export const telegramBindTokens = pgTable(
  'telegram_bind_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    staffId: uuid('staff_id').references(() => staff.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (table) => [
    index('telegram_bind_tokens_user_idx').on(table.userId),
    index('telegram_bind_tokens_staff_idx').on(table.staffId),
    check('telegram_bind_tokens_one_owner', sql`(${table.userId} is null) <> (${table.staffId} is null)`),
  ],
);

export const TELEGRAM_STATUSES = ['pending', 'sent', 'failed', 'cancelled'] as const;
export type TelegramStatus = (typeof TELEGRAM_STATUSES)[number];

/**
 * Telegram's outbox, the sibling of `mail_outbox` (docs/decisions/telegram.md): every message to a
 * chat, and its delivery queue, most urgent first.
 */
export const telegramOutbox = pgTable(
  'telegram_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    chatId: bigint('chat_id', { mode: 'number' }).notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    // Which kind of message, e.g. payment_confirmed, expiry_reminder.
    kind: text('kind').notNull(),
    text: text('text').notNull(),
    // Lower goes first: 1 payment confirmations and alerts, 2 notices, 3 reminders.
    priority: smallint('priority').notNull().default(2),
    status: text('status').$type<TelegramStatus>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    error: text('error'),
  },
  (table) => [
    index('telegram_outbox_queue_idx').on(table.status, table.priority, table.nextAttemptAt, table.createdAt),
    index('telegram_outbox_failed_idx')
      .on(table.createdAt)
      .where(sql`${table.status} = 'failed'`),
  ],
);

export type TelegramOutboxRow = typeof telegramOutbox.$inferSelect;
