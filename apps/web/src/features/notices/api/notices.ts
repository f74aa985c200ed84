import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { noticeListSchema } from '@skyway/shared/schemas/notices';
import { callApi } from '../../../lib/api-client.ts';
import { currentLanguage } from '../../../lib/language.ts';

export type NoticeList = z.infer<typeof noticeListSchema>;
export type Notice = NoticeList['list'][number];

/** How often the bell asks again while the console is open: an expired notice goes, a new one comes. */
export const NOTICES_REFETCH_MS = 60_000;

/**
 * The notices come in the language of the page (the `l` that every call carries): a cached list in
 * another language must not stand in for it.
 */
export const noticesQueryKey = () => ['notices', currentLanguage()] as const;

/**
 * The notices the account may see now, newest first, with its read state. Without a toast on
 * failure (the bell asks by itself, every minute, and keeps what it has), but an ended session is
 * told as by any call: these are often the first to meet it.
 */
export function fetchNotices(): Promise<NoticeList> {
  return callApi<NoticeList>('/web/notice/list', {}, { background: true });
}

/**
 * Marks each notice read, one call each; answers the ids the server took. One that failed (it
 * expired meanwhile, say) is left out, and the list is read again.
 */
export async function markNoticesRead(ids: readonly string[]): Promise<string[]> {
  const results = await Promise.allSettled(
    ids.map((id) => callApi<Record<string, never>>('/web/notice/read', { id }, { background: true })),
  );
  return ids.filter((_, index) => results[index]?.status === 'fulfilled');
}

export function useNotices() {
  return useQuery({
    queryKey: noticesQueryKey(),
    queryFn: fetchNotices,
    staleTime: 0,
    refetchOnMount: true,
    refetchOnWindowFocus: true,
    refetchInterval: NOTICES_REFETCH_MS,
  });
}

/** The list with these notices read, and the unread count that follows. */
export function withRead(list: NoticeList, ids: readonly string[]): NoticeList {
  const read = new Set(ids);
  const notices = list.list.map((notice) => (read.has(notice.id) ? { ...notice, read: true } : notice));
  return { unread: notices.filter((notice) => !notice.read).length, list: notices };
}

export function useMarkNoticesRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: markNoticesRead,
    onSuccess: (read, asked) => {
      client.setQueryData<NoticeList>(noticesQueryKey(), (list) => list && withRead(list, read));
      if (read.length < asked.length) void client.invalidateQueries({ queryKey: noticesQueryKey() });
    },
  });
}
