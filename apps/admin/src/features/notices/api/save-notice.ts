import type { z } from 'zod';
import type { noticeCreateRequest } from '@skyway/shared/schemas/admin/notices';
import { api } from '../../../lib/api-client.ts';

export type NoticeBody = z.input<typeof noticeCreateRequest>;

/** Writes a new notice, or (with its id) replaces every field of one. */
export const saveNotice = (id: string | undefined, body: NoticeBody) =>
  id ? api('PATCH', `/announcements/${id}`, body) : api('POST', '/announcements', body);
