import { and, desc, eq, gt, isNotNull, isNull, lte, or, type SQL, sql } from 'drizzle-orm';
import type { Language } from '@skyway/shared/languages';
import { NOTICE_LIST_MAX } from '@skyway/shared/notices';
import type { Database } from '../../db/client.ts';
import { type NoticeRow, noticeReads, notices } from '../../db/schema/index.ts';

/** Shows now: published, and not yet expired. */
export const showingAt = (now: Date): SQL =>
  and(lte(notices.publishAt, now), or(isNull(notices.expireAt), gt(notices.expireAt, now))) as SQL;

/** The notices an account sees: meant for everyone, or for those with (or without) access as it is. */
const forAccount = (hasAccess: boolean): SQL =>
  or(eq(notices.audience, 'all'), eq(notices.audience, hasAccess ? 'with_access' : 'without_access')) as SQL;

export interface AccountNotice {
  id: string;
  title: string;
  bodyHtml: string;
  publishAt: Date;
  read: boolean;
}

/** What an account sees now in its language, newest first, each with whether it has read it. */
export async function accountNotices(
  db: Database,
  account: { userId: string; hasAccess: boolean; language: Language },
  now: Date,
): Promise<AccountNotice[]> {
  const rows = await db
    .select({
      id: notices.id,
      title: sql<string>`${notices.title} ->> ${account.language}`,
      bodyHtml: sql<string>`${notices.bodyHtml} ->> ${account.language}`,
      publishAt: notices.publishAt,
      readAt: noticeReads.readAt,
    })
    .from(notices)
    .leftJoin(noticeReads, and(eq(noticeReads.noticeId, notices.id), eq(noticeReads.userId, account.userId)))
    .where(and(showingAt(now), forAccount(account.hasAccess)))
    .orderBy(desc(notices.publishAt), desc(notices.id))
    .limit(NOTICE_LIST_MAX);
  return rows.map((row) => ({
    id: row.id,
    title: row.title,
    bodyHtml: row.bodyHtml,
    publishAt: row.publishAt ?? now,
    read: row.readAt !== null,
  }));
}

/**
 * Records that the account read a notice it sees now; false when it sees no such notice (another
 * audience's, a draft, an expired one). Reading one twice is reading it once.
 */
export async function markNoticeRead(
  db: Database,
  account: { userId: string; hasAccess: boolean },
  noticeId: string,
  now: Date,
): Promise<boolean> {
  const [visible] = await db
    .select({ id: notices.id })
    .from(notices)
    .where(and(eq(notices.id, noticeId), showingAt(now), forAccount(account.hasAccess)));
  if (!visible) return false;
  await db
    .insert(noticeReads)
    .values({ userId: account.userId, noticeId, readAt: now })
    .onConflictDoNothing();
  return true;
}

/** The notices marked for the download page that show now or later, newest first. */
export async function downloadPageCandidates(db: Database, now: Date): Promise<NoticeRow[]> {
  return db
    .select()
    .from(notices)
    .where(
      and(
        eq(notices.onDownloadPage, true),
        isNotNull(notices.publishAt),
        or(isNull(notices.expireAt), gt(notices.expireAt, now)),
      ),
    )
    .orderBy(desc(notices.publishAt), desc(notices.id))
    .limit(NOTICE_LIST_MAX);
}

/** The back office's list: every notice, newest written first. */
export async function listNotices(
  db: Database,
  page: { limit: number; offset: number },
): Promise<{ rows: NoticeRow[]; total: number }> {
  const [rows, [counted]] = await Promise.all([
    db
      .select()
      .from(notices)
      .orderBy(desc(notices.createdAt), desc(notices.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ total: sql<number>`count(*)::int` }).from(notices),
  ]);
  return { rows, total: counted?.total ?? 0 };
}

export async function lockNotice(tx: Database, id: string): Promise<NoticeRow | undefined> {
  const [row] = await tx.select().from(notices).where(eq(notices.id, id)).for('update');
  return row;
}
