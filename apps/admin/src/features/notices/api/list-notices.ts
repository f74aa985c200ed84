import type { z } from 'zod';
import type { noticeSchema } from '@skyway/shared/schemas/admin/notices';
import { usePageList } from '../../../lib/use-page-list.ts';

export type Notice = z.infer<typeof noticeSchema>;

export const NOTICES_KEY = ['/announcements'];

/** The notices to customers, a page at a time. */
export const useNotices = () => usePageList<Notice>('/announcements');
