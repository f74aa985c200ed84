import { z } from 'zod';

/**
 * A published notice as a customer reads it, in the caller's language (the `l` field). `body_html`
 * is the body's Markdown rendered by the server with raw HTML escaped and only safe links kept: the
 * client inserts it as it is.
 */
export const customerNoticeSchema = z.object({
  id: z.uuid(),
  title: z.string(),
  body_html: z.string(),
  /** When it was published, unix seconds. */
  publish_time: z.number().int(),
});

/** Reply of `/web/notice/list`: the notices the account may see now, newest first, each with its read state. */
export const noticeListSchema = z.object({
  unread: z.number().int().nonnegative(),
  list: z.array(customerNoticeSchema.extend({ read: z.boolean() })),
});

/** `/web/notice/read`: the account has seen this notice. */
export const noticeReadRequest = z.object({ id: z.uuid() });

/** Reply of `/web/notice/public` (no sign-in): the notices shown on the download page now. */
export const publicNoticeListSchema = z.object({ list: z.array(customerNoticeSchema) });
