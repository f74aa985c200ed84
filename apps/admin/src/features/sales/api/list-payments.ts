import type { z } from 'zod';
import type { adminPaymentSchema } from '@skyway/shared/schemas/admin/sales';
import { type Filters, usePageList } from '../../../lib/use-page-list.ts';

export type Payment = z.infer<typeof adminPaymentSchema>;

/** Payments a page at a time, newest first until turned, narrowed by the sales filters. */
export const usePayments = (filters: Filters) =>
  usePageList<Payment>('/payments', filters, { sortable: true });
