import type { z } from 'zod';
import type { staffTicketReplyRequest } from '@skyway/shared/schemas/admin/tickets';
import { api } from '../../../lib/api-client.ts';
import type { StaffTicketThread } from './get-ticket.ts';

/** A reply to the customer (mailed to them) or an internal note. */
export const replyToTicket = (id: string, reply: z.input<typeof staffTicketReplyRequest>) =>
  api<StaffTicketThread>('POST', `/tickets/${id}/messages`, reply);

/** Gives the ticket to a member, or to nobody. */
export const assignTicket = (id: string, staffId: string | null) =>
  api<StaffTicketThread>('POST', `/tickets/${id}/assign`, { staff_id: staffId });

export const closeTicket = (id: string) => api<StaffTicketThread>('POST', `/tickets/${id}/close`, {});

/** An attachment as a file to save: the server hands images out only as downloads. */
export async function downloadTicketImage(id: string): Promise<Blob> {
  const response = await fetch(`/admin/api/v1/ticket-attachments/${id}`, { credentials: 'same-origin' });
  if (!response.ok) throw new Error(response.statusText);
  return response.blob();
}
