import type { z } from 'zod';
import type { refundRequest } from '@skyway/shared/schemas/admin/sales';
import { api } from '../../../lib/api-client.ts';

/** Gives a payment's money back through its provider, taking the order's time back or keeping it. */
export const refundPayment = (id: string, body: z.infer<typeof refundRequest>) =>
  api('POST', `/payments/${id}/refund`, body);
