import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { Translated } from '@skyway/shared/notices';
import type { helpPreviewSchema } from '@skyway/shared/schemas/admin/help';
import { api } from '../../../lib/api-client.ts';

type Preview = z.infer<typeof helpPreviewSchema>;

/** The Markdown body in every language, rendered by the server as a customer with access will see it. */
export const useHelpPreview = (body: Translated) =>
  useQuery({
    queryKey: ['/help/preview', body],
    queryFn: () => api<Preview>('POST', '/help/preview', { body }),
    staleTime: Infinity,
  });
