import { z } from 'zod';
import { NOTICE_AUDIENCES, NOTICE_BODY_MAX, NOTICE_STATES, NOTICE_TITLE_MAX } from '../../notices.ts';
import { inEachLanguage, isoTime } from './common.ts';

const title = z.string().trim().min(1).max(NOTICE_TITLE_MAX);
const body = z.string().trim().min(1).max(NOTICE_BODY_MAX);

/** A notice as the back office shows it. */
export const noticeSchema = z.object({
  id: z.uuid(),
  state: z.enum(NOTICE_STATES),
  title: inEachLanguage(z.string()),
  /** The Markdown as staff wrote it. */
  body: inEachLanguage(z.string()),
  /** The body as customers see it (rendered safely). */
  body_html: inEachLanguage(z.string()),
  audience: z.enum(NOTICE_AUDIENCES),
  on_download_page: z.boolean(),
  /** Mailed to its audience (those who did not unsubscribe) once published. */
  by_mail: z.boolean(),
  /** How many messages went to the outbox so far, and when the mailing finished (null: not, or not yet). */
  mailed: z.number().int(),
  mailed_at: isoTime.nullable(),
  /** Null: a draft. */
  publish_at: isoTime.nullable(),
  /** Null: shows until taken down. */
  expire_at: isoTime.nullable(),
  created_at: isoTime,
  updated_at: isoTime,
});

const noticeFields = {
  title: inEachLanguage(title),
  body: inEachLanguage(body),
  audience: z.enum(NOTICE_AUDIENCES).default('all'),
  on_download_page: z.boolean().default(false),
  by_mail: z.boolean().default(false),
  publish_at: isoTime.nullable().default(null),
  expire_at: isoTime.nullable().default(null),
};

const expiresAfterPublishing = (notice: { publish_at?: string | null; expire_at?: string | null }) =>
  !notice.publish_at || !notice.expire_at || Date.parse(notice.expire_at) > Date.parse(notice.publish_at);
const expiryRule = { message: 'the expiry must come after the publish time', path: ['expire_at'] };

/** A new notice: a draft without `publish_at`, scheduled or published at once with it. */
export const noticeCreateRequest = z.object(noticeFields).refine(expiresAfterPublishing, expiryRule);

/** A change: any of the fields; `publish_at: null` takes a notice back to draft. */
export const noticePatchRequest = z
  .object({
    title: noticeFields.title.optional(),
    body: noticeFields.body.optional(),
    audience: z.enum(NOTICE_AUDIENCES).optional(),
    on_download_page: z.boolean().optional(),
    by_mail: z.boolean().optional(),
    publish_at: isoTime.nullable().optional(),
    expire_at: isoTime.nullable().optional(),
  })
  .refine(expiresAfterPublishing, expiryRule);

/** The body in each language as customers would see it, for the editor's preview. */
export const noticePreviewRequest = z.object({ body: inEachLanguage(z.string().max(NOTICE_BODY_MAX)) });
export const noticePreviewSchema = z.object({ body_html: inEachLanguage(z.string()) });
