import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { ticketTimesSchema } from '@skyway/shared/schemas/admin/tickets';
import { api } from '../../../lib/api-client.ts';

export type TicketTimes = z.infer<typeof ticketTimesSchema>;

/** The support figures of the last 30 days. */
export const useTicketTimes = () =>
  useQuery({
    queryKey: ['/tickets/times'],
    queryFn: () => api<TicketTimes>('GET', '/tickets/times?days=30'),
  });
