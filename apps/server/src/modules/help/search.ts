import type { Language } from '@skyway/shared/languages';
import type { Database } from '../../db/client.ts';
import { readCache } from '../../db/read-cache.ts';
import { articlesRevision, publishedArticles } from './repository.ts';
import { buildSearchIndex, type HelpMatch, type HelpSearchIndex } from './search-index.ts';

/**
 * How often an instance asks the database whether the articles changed. An edit made on this
 * instance drops its index at once; another instance sees it within this time.
 */
export const HELP_REVISION_TTL_MS = 2_000;

const revisions = readCache(HELP_REVISION_TTL_MS, articlesRevision);
const indexes = new WeakMap<Database, { revision: string; index: Promise<HelpSearchIndex> }>();

async function currentIndex(db: Database, siteName: string): Promise<HelpSearchIndex> {
  const revision = await revisions.get(db);
  const held = indexes.get(db);
  if (held?.revision === revision) return held.index;
  // Searches that come while it is built share the build.
  const index = publishedArticles(db).then((rows) => buildSearchIndex(rows, siteName));
  const fresh = { revision, index };
  indexes.set(db, fresh);
  index.catch(() => {
    if (indexes.get(db) === fresh) indexes.delete(db);
  });
  return index;
}

/** The published articles that match a query, in the reader's language, best first. */
export async function searchArticles(
  db: Database,
  query: string,
  language: Language,
  siteName: string,
): Promise<HelpMatch[]> {
  return (await currentIndex(db, siteName)).search(query, language);
}

/** After a change to articles has committed on this instance. */
export function forgetHelpIndex(db: Database): void {
  revisions.forget(db);
  indexes.delete(db);
}
