import type { z } from 'zod';
import type { staffTicketSchema } from '@skyway/shared/schemas/admin/tickets';
import type { customerTicketMessageSchema, customerTicketSchema } from '@skyway/shared/schemas/tickets';
import type { TicketRow } from '../../db/schema/index.ts';
import type { ThreadMessage } from './repository.ts';

const unixSeconds = (date: Date) => Math.floor(date.getTime() / 1000);
const iso = (date: Date | null) => date?.toISOString() ?? null;

export function presentCustomerTicket(row: TicketRow): z.infer<typeof customerTicketSchema> {
  return {
    id: row.id,
    subject: row.subject,
    category: row.category,
    priority: row.priority,
    state: row.state,
    unread: row.unreadByCustomer,
    created_at: unixSeconds(row.createdAt),
    last_message_at: unixSeconds(row.lastMessageAt),
  };
}

/** A message as the customer sees it: who wrote it (staff by role, never by name), what, and the images. */
export function presentCustomerMessage(message: ThreadMessage): z.infer<typeof customerTicketMessageSchema> {
  return {
    id: message.id,
    from: message.author,
    body: message.body,
    created_at: unixSeconds(message.createdAt),
    attachments: message.attachments,
  };
}

export function presentStaffTicket(row: {
  ticket: TicketRow;
  customerEmail: string;
  assigneeEmail: string | null;
}): z.infer<typeof staffTicketSchema> {
  const { ticket } = row;
  return {
    id: ticket.id,
    subject: ticket.subject,
    category: ticket.category,
    priority: ticket.priority,
    state: ticket.state,
    customer: { id: ticket.userId, email: row.customerEmail },
    assignee:
      ticket.assigneeId && row.assigneeEmail ? { id: ticket.assigneeId, email: row.assigneeEmail } : null,
    waiting_since: iso(ticket.waitingSince),
    created_at: ticket.createdAt.toISOString(),
    last_message_at: ticket.lastMessageAt.toISOString(),
    first_response_at: iso(ticket.firstResponseAt),
    closed_at: iso(ticket.closedAt),
  };
}

export const presentStaffMessage = (message: ThreadMessage) => ({
  id: message.id,
  from: message.author,
  staff: message.staffId && message.staffEmail ? { id: message.staffId, email: message.staffEmail } : null,
  internal: message.internal,
  body: message.body,
  created_at: message.createdAt.toISOString(),
  attachments: message.attachments,
});

/** An attachment goes out as a download only: never shown inline, never sniffed into another type. */
export const ATTACHMENT_HEADERS = (id: string, mime: string) => ({
  'content-type': mime,
  'content-disposition': `attachment; filename="${id}.${mime.split('/')[1] ?? 'bin'}"`,
  'x-content-type-options': 'nosniff',
  'cache-control': 'private, no-store',
});
