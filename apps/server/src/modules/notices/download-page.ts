import type { Language } from '@skyway/shared/languages';
import { noticeState } from '@skyway/shared/notices';
import type { Database } from '../../db/client.ts';
import { readCache } from '../../db/read-cache.ts';
import { downloadPageCandidates } from './repository.ts';

/**
 * How long an instance serves the download page's notices before reading them again: the page is
 * the site's busiest, and its notices change a few times a month. Each is shown from its publish
 * time to its expiry exactly all the same: the copy holds the ones still to come too, and is
 * filtered by the time of each request.
 */
export const DOWNLOAD_NOTICES_TTL_MS = 30_000;

const candidates = readCache(DOWNLOAD_NOTICES_TTL_MS, (db) => downloadPageCandidates(db, new Date()));

/** After a change to notices has committed. */
export const forgetDownloadPageNotices = candidates.forget;

/** The notices the download page shows now, in a language. */
export async function downloadPageNotices(db: Database, language: Language, now: Date) {
  const rows = await candidates.get(db, now.getTime());
  return rows
    .filter((row) => noticeState(row, now) === 'published')
    .map((row) => ({
      id: row.id,
      title: row.title[language],
      body_html: row.bodyHtml[language],
      publish_time: Math.floor((row.publishAt ?? now).getTime() / 1000),
    }));
}
