import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { Translated } from '@skyway/shared/notices';
import type { noticePreviewSchema } from '@skyway/shared/schemas/admin/notices';
import { api } from '../../../lib/api-client.ts';

type Preview = z.infer<typeof noticePreviewSchema>;

/** The Markdown body in every language, rendered by the server as customers will see it. */
export const useNoticePreview = (body: Translated) =>
  useQuery({
    queryKey: ['/announcements/preview', body],
    queryFn: () => api<Preview>('POST', '/announcements/preview', { body }),
    staleTime: Infinity,
  });
