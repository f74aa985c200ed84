import type { z } from 'zod';
import { translated, type Translated } from '@skyway/shared/notices';
import type {
  helpArticleAdminSchema,
  helpArticleCreateRequest,
  helpArticlePatchRequest,
} from '@skyway/shared/schemas/admin/help';
import type { Database } from '../../db/client.ts';
import type { HelpArticleRow } from '../../db/schema/index.ts';
import { AppError } from '../../http/errors.ts';
import { type StaffActor, recordAudit } from '../audit/repository.ts';
import { renderArticle } from './render.ts';
import { deleteArticle, insertArticle, lockArticle, slugTaken, updateArticle } from './repository.ts';
import { forgetHelpIndex } from './search.ts';

type ArticleInput = z.output<typeof helpArticleCreateRequest>;
type ArticleChange = z.output<typeof helpArticlePatchRequest>;
type ArticleView = z.infer<typeof helpArticleAdminSchema>;

export function presentArticle(row: HelpArticleRow): ArticleView {
  return {
    id: row.id,
    slug: row.slug,
    category: row.category,
    position: row.position,
    published: row.published,
    title: row.title,
    body: row.body,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** The editor's preview: each language as a customer with access will see it. */
export const previewBodies = (body: Translated, siteName: string): Translated =>
  translated((language) => renderArticle(body[language], { hasAccess: true, siteName }));

/** A change and its audit row in one transaction; this instance's search drops its index once it committed. */
async function changing(
  db: Database,
  actor: StaffActor,
  now: Date,
  action: string,
  work: (tx: Database) => Promise<{ before: HelpArticleRow | null; after: HelpArticleRow | null }>,
): Promise<HelpArticleRow | null> {
  try {
    return await db.transaction(async (tx) => {
      const { before, after } = await work(tx);
      const target = after ?? before;
      if (!target) throw new Error('a help article change with no article');
      await recordAudit(
        tx,
        actor,
        {
          action,
          targetType: 'help_article',
          targetId: target.id,
          before: before && presentArticle(before),
          after: after ? presentArticle(after) : { removed: true },
        },
        now,
      );
      return after;
    });
  } catch (error) {
    if (slugTakenMeanwhile(error)) throw new AppError(409, 'help_slug_taken', { field: 'slug' });
    throw error;
  } finally {
    forgetHelpIndex(db);
  }
}

async function lockedOrMissing(tx: Database, id: string): Promise<HelpArticleRow> {
  const row = await lockArticle(tx, id);
  if (!row) throw new AppError(404, 'not_found');
  return row;
}

/** A slug taken between our check and the write (two members at once): PostgreSQL's unique key. */
const slugTakenMeanwhile = (error: unknown): boolean => {
  const causes = [error, (error as { cause?: unknown } | null)?.cause];
  return causes.some(
    (cause) =>
      (cause as { code?: string } | null)?.code === '23505' &&
      String((cause as { constraint?: string }).constraint ?? '').startsWith('help_articles_slug'),
  );
};

async function refuseTakenSlug(tx: Database, slug: string, exceptId: string | null): Promise<void> {
  if (await slugTaken(tx, slug, exceptId)) throw new AppError(409, 'help_slug_taken', { field: 'slug' });
}

export async function createArticle(
  db: Database,
  actor: StaffActor,
  input: ArticleInput,
  now: Date,
): Promise<HelpArticleRow> {
  const created = await changing(db, actor, now, 'help.create', async (tx) => {
    await refuseTakenSlug(tx, input.slug, null);
    const after = await insertArticle(tx, {
      ...input,
      updatedBy: actor.staffId,
      createdAt: now,
      updatedAt: now,
    });
    return { before: null, after };
  });
  if (!created) throw new Error('help article not written');
  return created;
}

export async function changeArticle(
  db: Database,
  actor: StaffActor,
  id: string,
  change: ArticleChange,
  now: Date,
): Promise<HelpArticleRow> {
  const changed = await changing(db, actor, now, 'help.change', async (tx) => {
    const before = await lockedOrMissing(tx, id);
    if (change.slug !== undefined && change.slug !== before.slug) await refuseTakenSlug(tx, change.slug, id);
    const after = await updateArticle(tx, id, { ...change, updatedBy: actor.staffId, updatedAt: now });
    if (!after) throw new AppError(404, 'not_found');
    return { before, after };
  });
  if (!changed) throw new Error('help article not written');
  return changed;
}

/** Gone for good; the audit row keeps what it said. */
export async function removeArticle(db: Database, actor: StaffActor, id: string, now: Date): Promise<void> {
  await changing(db, actor, now, 'help.delete', async (tx) => {
    const before = await lockedOrMissing(tx, id);
    await deleteArticle(tx, id);
    return { before, after: null };
  });
}
