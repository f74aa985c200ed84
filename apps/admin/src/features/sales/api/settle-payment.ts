import type { z } from 'zod';
import type { settleRequest } from '@skyway/shared/schemas/admin/sales';
import { api } from '../../../lib/api-client.ts';

/** Marks a payment that gave no time settled by hand. */
export const settlePayment = (id: string, body: z.infer<typeof settleRequest>) =>
  api('POST', `/payments/${id}/settle`, body);
