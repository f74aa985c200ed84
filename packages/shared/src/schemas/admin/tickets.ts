import { z } from 'zod';
import { TICKET_CATEGORIES, TICKET_MESSAGE_MAX, TICKET_PRIORITIES, TICKET_STATES } from '../../tickets.ts';
import { cappedPageOf, listQuery } from '../paging.ts';
import { ticketAttachmentSchema } from '../tickets.ts';
import { isoTime } from './common.ts';

/**
 * The queue's filters. With none, it shows the tickets waiting for staff (`open`), the longest
 * waiting first. `assignee`: a member's id, `me`, or `none` (nobody's yet); `waiting_hours`: only
 * those that have waited for staff at least this long.
 */
export const ticketQueueQuery = listQuery.extend({
  state: z.enum(TICKET_STATES).default('open'),
  category: z.enum(TICKET_CATEGORIES).optional(),
  priority: z.enum(TICKET_PRIORITIES).optional(),
  assignee: z.union([z.uuid(), z.enum(['me', 'none'])]).optional(),
  waiting_hours: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 365)
    .optional(),
});

/** A ticket as the queue shows it. */
export const staffTicketSchema = z.object({
  id: z.uuid(),
  subject: z.string(),
  category: z.enum(TICKET_CATEGORIES),
  priority: z.enum(TICKET_PRIORITIES),
  state: z.enum(TICKET_STATES),
  customer: z.object({ id: z.uuid(), email: z.string() }),
  assignee: z.object({ id: z.uuid(), email: z.string() }).nullable(),
  /** Since when it has waited for staff; null when it waits for nobody or for the customer. */
  waiting_since: isoTime.nullable(),
  created_at: isoTime,
  last_message_at: isoTime,
  first_response_at: isoTime.nullable(),
  closed_at: isoTime.nullable(),
});

export const ticketQueueSchema = cappedPageOf(staffTicketSchema);

/** A message of the thread as staff see it: internal notes included, and marked. */
export const staffTicketMessageSchema = z.object({
  id: z.uuid(),
  from: z.enum(['customer', 'staff']),
  staff: z.object({ id: z.uuid(), email: z.string() }).nullable(),
  internal: z.boolean(),
  body: z.string(),
  created_at: isoTime,
  attachments: z.array(ticketAttachmentSchema),
});

export const staffTicketThreadSchema = staffTicketSchema.extend({
  messages: z.array(staffTicketMessageSchema),
});

/**
 * A staff reply: to the customer (mailed, the ticket becomes `answered`, or `waiting` when it asks
 * the customer for something), or an internal note the customer never sees (the state stays).
 */
export const staffTicketReplyRequest = z.object({
  message: z.string().trim().min(1).max(TICKET_MESSAGE_MAX),
  internal: z.boolean().default(false),
  wait_for_customer: z.boolean().default(false),
});

/** Give the ticket to a member who may reply, or to nobody (`null`). */
export const ticketAssignRequest = z.object({ staff_id: z.uuid().nullable() });

export const SAVED_REPLY_TITLE_MAX = 80;

/** A saved answer staff pick from when replying. */
export const savedReplySchema = z.object({
  id: z.uuid(),
  title: z.string(),
  body: z.string(),
  updated_at: isoTime,
});

export const savedReplyRequest = z.object({
  title: z.string().trim().min(1).max(SAVED_REPLY_TITLE_MAX),
  body: z.string().trim().min(1).max(TICKET_MESSAGE_MAX),
});

export const savedReplyListSchema = z.object({ items: z.array(savedReplySchema) });

/**
 * The dashboard's support figures over the last `days`: medians of the time to the first staff
 * reply and of the time to close, in seconds (null when there is nothing to measure yet).
 */
export const ticketTimesQuery = z.object({ days: z.coerce.number().int().min(1).max(365).default(30) });
export const ticketTimesSchema = z.object({
  days: z.number().int(),
  opened: z.number().int(),
  waiting: z.number().int(),
  first_response_median_seconds: z.number().nullable(),
  resolution_median_seconds: z.number().nullable(),
});
