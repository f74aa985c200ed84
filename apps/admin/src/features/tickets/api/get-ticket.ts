import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { staffTicketThreadSchema } from '@skyway/shared/schemas/admin/tickets';
import { api } from '../../../lib/api-client.ts';

export type StaffTicketThread = z.infer<typeof staffTicketThreadSchema>;

/** A ticket's whole thread, internal notes included. */
export const useTicket = (id: string) =>
  useQuery({ queryKey: ['/tickets', id], queryFn: () => api<StaffTicketThread>('GET', `/tickets/${id}`) });
