import type { z } from 'zod';
import type { resolveNoticeRequest } from '@skyway/shared/schemas/admin/sales';
import { api } from '../../../lib/api-client.ts';

/** Closes a provider's notice (a dispute, a refund made in their dashboard) with what was found. */
export const resolveNotice = (id: string, body: z.infer<typeof resolveNoticeRequest>) =>
  api('POST', `/notices/${id}/resolve`, body);
