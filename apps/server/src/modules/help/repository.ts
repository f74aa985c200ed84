import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { type HelpArticleRow, helpArticles } from '../../db/schema/index.ts';

/** The published articles, by category (in the enum's order) then position. */
export async function publishedArticles(db: Database): Promise<HelpArticleRow[]> {
  return db
    .select()
    .from(helpArticles)
    .where(eq(helpArticles.published, true))
    .orderBy(asc(helpArticles.category), asc(helpArticles.position), asc(helpArticles.slug));
}

export async function publishedArticle(db: Database, slug: string): Promise<HelpArticleRow | undefined> {
  const [row] = await db
    .select()
    .from(helpArticles)
    .where(and(eq(helpArticles.slug, slug), eq(helpArticles.published, true)));
  return row;
}

/** The published articles among these ids. */
export async function publishedArticlesIn(db: Database, ids: string[]): Promise<HelpArticleRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(helpArticles)
    .where(and(inArray(helpArticles.id, ids), eq(helpArticles.published, true)));
}

/** When each published article last changed: what a search index compares its own copy with. */
export async function publishedVersions(db: Database): Promise<Map<string, number>> {
  const rows = await db
    .select({ id: helpArticles.id, updatedAt: helpArticles.updatedAt })
    .from(helpArticles)
    .where(eq(helpArticles.published, true));
  return new Map(rows.map((row) => [row.id, row.updatedAt.getTime()]));
}

/** Every article, for the back office, in the order customers see them. */
export async function allArticles(db: Database): Promise<HelpArticleRow[]> {
  return db
    .select()
    .from(helpArticles)
    .orderBy(asc(helpArticles.category), asc(helpArticles.position), asc(helpArticles.slug));
}

/**
 * What changes whenever an article is written, published, hidden or deleted: how many there are and
 * the latest change. Another instance's search reads it to know its index is out of date.
 */
export async function articlesRevision(db: Database): Promise<string> {
  const [row] = await db
    .select({
      count: sql<number>`count(*)::int`,
      latest: sql<string | null>`max(${helpArticles.updatedAt})::text`,
    })
    .from(helpArticles);
  return `${row?.count ?? 0}@${row?.latest ?? ''}`;
}

export async function lockArticle(tx: Database, id: string): Promise<HelpArticleRow | undefined> {
  const [row] = await tx.select().from(helpArticles).where(eq(helpArticles.id, id)).for('update');
  return row;
}

export async function slugTaken(tx: Database, slug: string, exceptId: string | null): Promise<boolean> {
  const [row] = await tx
    .select({ id: helpArticles.id })
    .from(helpArticles)
    .where(eq(helpArticles.slug, slug));
  return row !== undefined && row.id !== exceptId;
}

export async function insertArticle(
  tx: Database,
  values: typeof helpArticles.$inferInsert,
): Promise<HelpArticleRow> {
  const [row] = await tx.insert(helpArticles).values(values).returning();
  if (!row) throw new Error('help article not written');
  return row;
}

export async function updateArticle(
  tx: Database,
  id: string,
  set: Partial<typeof helpArticles.$inferInsert>,
): Promise<HelpArticleRow | undefined> {
  const [row] = await tx.update(helpArticles).set(set).where(eq(helpArticles.id, id)).returning();
  return row;
}

export async function deleteArticle(tx: Database, id: string): Promise<void> {
  await tx.delete(helpArticles).where(eq(helpArticles.id, id));
}
