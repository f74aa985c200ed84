import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import type { NoticeAudience, Translated } from '@skyway/shared/notices';
import { staff } from './staff.ts';
import { users } from './users.ts';

/**
 * Notices staff write for customers (PRODUCT.md section 7), in every language. Their state comes
 * from their times (`noticeState`): no publish time is a draft.
 */
export const notices = pgTable(
  'notices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    title: jsonb('title').$type<Translated>().notNull(),
    // The Markdown as written, and as rendered when it was written: readers never render it.
    body: jsonb('body').$type<Translated>().notNull(),
    bodyHtml: jsonb('body_html').$type<Translated>().notNull(),
    audience: text('audience').$type<NoticeAudience>().notNull().default('all'),
    onDownloadPage: boolean('on_download_page').notNull().default(false),
    byMail: boolean('by_mail').notNull().default(false),
    publishAt: timestamp('publish_at', { withTimezone: true }),
    expireAt: timestamp('expire_at', { withTimezone: true }),
    // The mailing: the last account mailed (accounts go by id), how many, and when it finished.
    mailCursor: uuid('mail_cursor'),
    mailed: integer('mailed').notNull().default(0),
    mailedAt: timestamp('mailed_at', { withTimezone: true }),
    createdBy: uuid('created_by').references(() => staff.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    // What customers may see now: published, newest first.
    index('notices_published_idx')
      .on(table.publishAt.desc())
      .where(sql`${table.publishAt} is not null`),
    index('notices_created_idx').on(table.createdAt.desc(), table.id.desc()),
  ],
);

/** The notices an account has read (the console's unread count). */
export const noticeReads = pgTable(
  'notice_reads',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    noticeId: uuid('notice_id')
      .notNull()
      .references(() => notices.id, { onDelete: 'cascade' }),
    readAt: timestamp('read_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.noticeId] })],
);

export type NoticeRow = typeof notices.$inferSelect;
