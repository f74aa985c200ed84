import type { z } from 'zod';
import type { adminOrderSchema } from '@skyway/shared/schemas/admin/sales';
import { type Filters, usePageList } from '../../../lib/use-page-list.ts';

export type Order = z.infer<typeof adminOrderSchema>;

/** Orders a page at a time, newest first until turned, narrowed by the sales filters. */
export const useOrders = (filters: Filters) => usePageList<Order>('/orders', filters, { sortable: true });
