import type { z } from 'zod';
import type { refundRequest } from '@skyway/shared/schemas/admin/sales';
import { api } from '../../../lib/api-client.ts';

/**
 * Gives a payment's money back through its provider, taking the order's time back or keeping it;
 * `outside`: records one whose gateway has no refund call (Epay, USDT) as refunded outside, once the
 * money went back through the gateway's own merchant panel.
 */
export const refundPayment = (id: string, body: z.infer<typeof refundRequest>, outside = false) =>
  api('POST', `/payments/${id}/${outside ? 'refund-outside' : 'refund'}`, body);
