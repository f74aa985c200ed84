import { z } from 'zod';
import {
  TICKET_CATEGORIES,
  TICKET_IMAGE_MAX_BYTES,
  TICKET_IMAGES_MAX,
  TICKET_MESSAGE_MAX,
  TICKET_PRIORITIES,
  TICKET_STATES,
  TICKET_SUBJECT_MAX,
} from '../tickets.ts';

/**
 * An image as the console sends it: its bytes in base64. The server checks the bytes themselves
 * (never the name), so the length allowed here is only a bound on the body: a file a little over
 * the limit still arrives and is refused with its own reason.
 */
export const TICKET_IMAGE_UPLOAD_MAX_CHARS = Math.ceil((TICKET_IMAGE_MAX_BYTES * 1.5) / 3) * 4;
export const ticketImageUpload = z.string().max(TICKET_IMAGE_UPLOAD_MAX_CHARS);

const message = z.string().trim().min(1).max(TICKET_MESSAGE_MAX);
const images = z.array(ticketImageUpload).max(TICKET_IMAGES_MAX).default([]);

/** `/web/ticket/create`. */
export const ticketCreateRequest = z.object({
  subject: z.string().trim().min(1).max(TICKET_SUBJECT_MAX),
  category: z.enum(TICKET_CATEGORIES),
  priority: z.enum(TICKET_PRIORITIES),
  message,
  images,
});

/** `/web/ticket/reply`. */
export const ticketReplyRequest = z.object({ id: z.uuid(), message, images });

/** `/web/ticket/detail`, `/web/ticket/close`, `/web/ticket/attachment` (an attachment's id). */
export const ticketIdRequest = z.object({ id: z.uuid() });

/** `/web/ticket/list`. */
export const ticketListRequest = z.object({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  size: z.coerce.number().int().min(1).max(50).default(10),
});

export const ticketAttachmentSchema = z.object({
  id: z.uuid(),
  mime: z.string(),
  size: z.number().int(),
});

/** A ticket as its customer sees it in the list; times are unix seconds. */
export const customerTicketSchema = z.object({
  id: z.uuid(),
  subject: z.string(),
  category: z.enum(TICKET_CATEGORIES),
  priority: z.enum(TICKET_PRIORITIES),
  state: z.enum(TICKET_STATES),
  /** Staff replied since the customer last opened it. */
  unread: z.boolean(),
  created_at: z.number().int(),
  last_message_at: z.number().int(),
});

/** Reply of `/web/ticket/list`: newest activity first, and how many tickets have unread replies. */
export const ticketListSchema = z.object({
  total: z.number().int(),
  unread: z.number().int(),
  list: z.array(customerTicketSchema),
});

/** A message of the thread as the customer sees it (staff's internal notes are never in it). */
export const customerTicketMessageSchema = z.object({
  id: z.uuid(),
  from: z.enum(['customer', 'staff']),
  body: z.string(),
  created_at: z.number().int(),
  attachments: z.array(ticketAttachmentSchema),
});

/** Reply of `/web/ticket/detail`, `/web/ticket/create` and `/web/ticket/reply`. */
export const ticketThreadSchema = customerTicketSchema.extend({
  messages: z.array(customerTicketMessageSchema),
});
