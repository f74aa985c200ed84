import type { z } from 'zod';
import type { publicNoticeListSchema } from '@skyway/shared/schemas/notices';
import { callApi } from '../../../lib/api-client.ts';

export type PublicNotice = z.infer<typeof publicNoticeListSchema>['list'][number];

/**
 * The notices staff put on the download page, newest first, in the page's language (a public call).
 * Silent: the page leaves them out when they cannot be read.
 */
export async function fetchPublicNotices(): Promise<PublicNotice[]> {
  const { list } = await callApi<z.infer<typeof publicNoticeListSchema>>(
    '/web/notice/public',
    {},
    { silent: true },
  );
  return list;
}
