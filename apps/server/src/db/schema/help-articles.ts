import { boolean, index, integer, jsonb, pgEnum, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { HELP_CATEGORIES } from '@skyway/shared/help';
import type { Translated } from '@skyway/shared/notices';
import { staff } from './staff.ts';

export const helpCategory = pgEnum('help_category', HELP_CATEGORIES);

/**
 * The help center's articles (PRODUCT.md section 10): Markdown in every language, in a category and
 * a place in it. Rendered at each read, for the reader (placeholders, sections for those with access).
 */
export const helpArticles = pgTable(
  'help_articles',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    slug: text('slug').notNull().unique(),
    category: helpCategory('category').notNull(),
    position: integer('position').notNull().default(0),
    published: boolean('published').notNull().default(false),
    title: jsonb('title').$type<Translated>().notNull(),
    body: jsonb('body').$type<Translated>().notNull(),
    updatedBy: uuid('updated_by').references(() => staff.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('help_articles_order_idx').on(table.category, table.position)],
);

export type HelpArticleRow = typeof helpArticles.$inferSelect;
