import type { z } from 'zod';
import type { staffTicketSchema } from '@skyway/shared/schemas/admin/tickets';
import { type Filters, usePageList } from '../../../lib/use-page-list.ts';

export type StaffTicket = z.infer<typeof staffTicketSchema>;

export const TICKETS_KEY = ['/tickets'];

/** The queue, a page at a time, under the filters chosen (by default: waiting for staff). */
export const useTicketQueue = (filters: Filters) => usePageList<StaffTicket>('/tickets', filters);
