import type { Language } from '@skyway/shared/languages';
import type { Database } from '../../db/client.ts';
import { readCache } from '../../db/read-cache.ts';
import { articlesRevision, publishedArticles, publishedArticlesIn, publishedVersions } from './repository.ts';
import { buildSearchIndex, type HelpMatch, type HelpSearchIndex } from './search-index.ts';

/**
 * How often an instance asks the database whether the articles changed. An edit made on this
 * instance is seen by its next search; another instance sees it within this time.
 */
export const HELP_REVISION_TTL_MS = 2_000;

const revisions = readCache(HELP_REVISION_TTL_MS, articlesRevision);

interface Held {
  /** The revision the index holds, or is being brought to. */
  revision: string;
  index: Promise<HelpSearchIndex>;
}
const indexes = new WeakMap<Database, Held>();

/**
 * Brings the index in line with the database by the articles that changed since (added, changed,
 * hidden, deleted): an edit costs the articles it touched, not a new index of all of them.
 */
async function synced(db: Database, index: HelpSearchIndex): Promise<HelpSearchIndex> {
  const versions = await publishedVersions(db);
  index.remove([...index.versions.keys()].filter((id) => !versions.has(id)));
  const changed = [...versions].filter(([id, at]) => index.versions.get(id) !== at).map(([id]) => id);
  index.upsert(await publishedArticlesIn(db, changed));
  return index;
}

/** The index at the database's current revision; searches that come meanwhile share the work. */
async function currentIndex(db: Database, siteName: string): Promise<HelpSearchIndex> {
  const revision = await revisions.get(db);
  const held = indexes.get(db);
  if (held?.revision === revision) return held.index;
  const index = held
    ? held.index.then((previous) => synced(db, previous))
    : publishedArticles(db).then((rows) => buildSearchIndex(rows, siteName));
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

/** Builds this instance's index ahead of the first search (at start). */
export async function prepareHelpIndex(db: Database, siteName: string): Promise<void> {
  await currentIndex(db, siteName);
}

/** After a change to articles has committed on this instance: its next search catches up. */
export function forgetHelpIndex(db: Database): void {
  revisions.forget(db);
}
