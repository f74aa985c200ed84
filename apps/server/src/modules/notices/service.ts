import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import { noticeState, translated, type Translated } from '@skyway/shared/notices';
import type {
  noticeCreateRequest,
  noticePatchRequest,
  noticeSchema,
} from '@skyway/shared/schemas/admin/notices';
import type { Database } from '../../db/client.ts';
import { type NoticeRow, notices } from '../../db/schema/index.ts';
import { renderMarkdown } from '../../lib/markdown.ts';
import { AppError } from '../../http/errors.ts';
import { type Actor, recordAudit } from '../audit/repository.ts';
import { lockNotice } from './repository.ts';
import { forgetDownloadPageNotices } from './download-page.ts';

export type NoticeInput = z.output<typeof noticeCreateRequest>;
export type NoticeChange = z.output<typeof noticePatchRequest>;
type NoticeView = z.infer<typeof noticeSchema>;

const iso = (date: Date | null) => date?.toISOString() ?? null;
const dateOf = (value: string | null) => (value === null ? null : new Date(value));

/** The bodies as customers see them (and the editor's preview). */
export const renderBodies = (body: Translated): Translated =>
  translated((language) => renderMarkdown(body[language]));

export function presentNotice(row: NoticeRow, now: Date): NoticeView {
  return {
    id: row.id,
    state: noticeState(row, now),
    title: row.title,
    body: row.body,
    body_html: row.bodyHtml,
    audience: row.audience,
    on_download_page: row.onDownloadPage,
    by_mail: row.byMail,
    mailed: row.mailed,
    mailed_at: iso(row.mailedAt),
    publish_at: iso(row.publishAt),
    expire_at: iso(row.expireAt),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** What audit rows keep of a notice: everything but the rendered bodies, which follow from the rest. */
function audited(row: NoticeRow, now: Date) {
  const view: Partial<NoticeView> = presentNotice(row, now);
  delete view.body_html;
  return view;
}

/** A change and its audit row in one transaction; the download page's copy is dropped once it committed. */
async function changing<After extends NoticeRow | 'removed'>(
  db: Database,
  actor: Actor,
  now: Date,
  action: string,
  work: (tx: Database) => Promise<{ before: NoticeRow | null; after: After }>,
): Promise<After> {
  try {
    return await db.transaction(async (tx) => {
      const { before, after } = await work(tx);
      const kept: NoticeRow | null = after === 'removed' ? null : after;
      const target = kept ?? before;
      if (!target) throw new Error('a notice change with no notice');
      await recordAudit(
        tx,
        actor,
        {
          action,
          targetType: 'notice',
          targetId: target.id,
          before: before && audited(before, now),
          after: kept ? audited(kept, now) : { removed: true },
        },
        now,
      );
      return after;
    });
  } finally {
    forgetDownloadPageNotices(db);
  }
}

async function lockedOrMissing(tx: Database, id: string): Promise<NoticeRow> {
  const row = await lockNotice(tx, id);
  if (!row) throw new AppError(404, 'not_found');
  return row;
}

async function written(
  tx: Database,
  id: string,
  set: Partial<typeof notices.$inferInsert>,
): Promise<NoticeRow> {
  const [row] = await tx.update(notices).set(set).where(eq(notices.id, id)).returning();
  if (!row) throw new AppError(404, 'not_found');
  return row;
}

/** A new notice: a draft, or scheduled or published at once when it has a publish time. */
export async function createNotice(
  db: Database,
  actor: Actor,
  input: NoticeInput,
  now: Date,
): Promise<NoticeRow> {
  const created = await changing(db, actor, now, 'notice.create', async (tx) => {
    const [row] = await tx
      .insert(notices)
      .values({
        title: input.title,
        body: input.body,
        bodyHtml: renderBodies(input.body),
        audience: input.audience,
        onDownloadPage: input.on_download_page,
        byMail: input.by_mail,
        publishAt: dateOf(input.publish_at),
        expireAt: dateOf(input.expire_at),
        createdBy: actor.staffId,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    if (!row) throw new Error('notice not written');
    return { before: null, after: row };
  });
  return created;
}

/**
 * A change to any of a notice's fields. Its expiry must stay after its publish time; a notice
 * whose mailing has begun keeps going to the rest of its audience as it now reads.
 */
export async function changeNotice(
  db: Database,
  actor: Actor,
  id: string,
  change: NoticeChange,
  now: Date,
): Promise<NoticeRow> {
  const changed = await changing(db, actor, now, 'notice.change', async (tx) => {
    const before = await lockedOrMissing(tx, id);
    const publishAt = change.publish_at === undefined ? before.publishAt : dateOf(change.publish_at);
    const expireAt = change.expire_at === undefined ? before.expireAt : dateOf(change.expire_at);
    if (publishAt && expireAt && expireAt <= publishAt) {
      throw new AppError(400, 'field_invalid', { field: 'expire_at' });
    }
    const body = change.body ? { body: change.body, bodyHtml: renderBodies(change.body) } : {};
    const after = await written(tx, id, {
      ...(change.title ? { title: change.title } : {}),
      ...body,
      ...(change.audience ? { audience: change.audience } : {}),
      ...(change.on_download_page !== undefined ? { onDownloadPage: change.on_download_page } : {}),
      ...(change.by_mail !== undefined ? { byMail: change.by_mail } : {}),
      publishAt,
      expireAt,
      updatedAt: now,
    });
    return { before, after };
  });
  return changed;
}

/** Shows it now: a draft or a scheduled notice (one already showing stays as it is). */
export async function publishNotice(db: Database, actor: Actor, id: string, now: Date): Promise<NoticeRow> {
  const published = await changing(db, actor, now, 'notice.publish', async (tx) => {
    const before = await lockedOrMissing(tx, id);
    const state = noticeState(before, now);
    if (state === 'published') return { before, after: before };
    if (state === 'expired') throw new AppError(409, 'notice_expired');
    return { before, after: await written(tx, id, { publishAt: now, updatedAt: now }) };
  });
  return published;
}

/** Takes it down now: it expires, and customers no longer see it. */
export async function takeDownNotice(db: Database, actor: Actor, id: string, now: Date): Promise<NoticeRow> {
  const expired = await changing(db, actor, now, 'notice.take_down', async (tx) => {
    const before = await lockedOrMissing(tx, id);
    const state = noticeState(before, now);
    if (state === 'expired') return { before, after: before };
    if (state !== 'published') throw new AppError(409, 'notice_not_published');
    return { before, after: await written(tx, id, { expireAt: now, updatedAt: now }) };
  });
  return expired;
}

/** Gone for good, with whether accounts read it; the audit row keeps what it said. */
export async function deleteNotice(db: Database, actor: Actor, id: string, now: Date): Promise<void> {
  await changing(db, actor, now, 'notice.delete', async (tx) => {
    const before = await lockedOrMissing(tx, id);
    await tx.delete(notices).where(eq(notices.id, id));
    return { before, after: 'removed' };
  });
}
