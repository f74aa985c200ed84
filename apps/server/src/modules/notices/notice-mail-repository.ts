import { and, asc, eq, gt, isNull, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { type NoticeRow, notices, users } from '../../db/schema/index.ts';
import { showingAt } from './repository.ts';

/** Notices to mail still: marked for mail, published now, and their mailing not finished. */
export async function noticesToMail(db: Database, now: Date): Promise<{ id: string }[]> {
  return db
    .select({ id: notices.id })
    .from(notices)
    .where(and(eq(notices.byMail, true), isNull(notices.mailedAt), showingAt(now)))
    .orderBy(asc(notices.publishAt));
}

/**
 * The notice, locked for its next batch, while it is still to mail; undefined when another instance
 * holds it (it is mailing that batch) or it no longer is (finished, taken down, mail turned off).
 */
export async function lockNoticeToMail(tx: Database, id: string, now: Date): Promise<NoticeRow | undefined> {
  const [row] = await tx
    .select()
    .from(notices)
    .where(and(eq(notices.id, id), eq(notices.byMail, true), isNull(notices.mailedAt), showingAt(now)))
    .for('update', { skipLocked: true });
  return row;
}

export interface NoticeRecipient {
  id: string;
  email: string;
  language: string;
}

/** The audience as it stands now: whether the account's access runs. */
function inAudience(notice: NoticeRow, now: Date): SQL | undefined {
  if (notice.audience === 'with_access') return gt(users.expireAt, now);
  if (notice.audience === 'without_access')
    return sql`(${users.expireAt} is null or ${users.expireAt} <= ${now})`;
  return undefined;
}

/**
 * The next `limit` accounts the notice goes to, after the last one mailed (accounts go by id): its
 * audience, not closed, not unsubscribed.
 */
export async function nextRecipients(
  tx: Database,
  notice: NoticeRow,
  now: Date,
  limit: number,
): Promise<NoticeRecipient[]> {
  return tx
    .select({ id: users.id, email: users.email, language: users.language })
    .from(users)
    .where(
      and(
        notice.mailCursor === null ? undefined : gt(users.id, notice.mailCursor),
        isNull(users.revokedAt),
        isNull(users.mailOptOutAt),
        inAudience(notice, now),
      ),
    )
    .orderBy(asc(users.id))
    .limit(limit);
}

/** Records a batch as mailed, and the mailing as finished when it was the last. */
export async function advanceMailing(
  tx: Database,
  notice: NoticeRow,
  batch: { last: string | undefined; count: number; finishedAt: Date | null },
): Promise<void> {
  await tx
    .update(notices)
    .set({
      mailCursor: batch.last ?? notice.mailCursor,
      mailed: sql`${notices.mailed} + ${batch.count}`,
      mailedAt: batch.finishedAt,
    })
    .where(eq(notices.id, notice.id));
}
