import { sql } from 'drizzle-orm';
import {
  boolean,
  customType,
  index,
  integer,
  pgEnum,
  pgTable,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { TICKET_CATEGORIES, TICKET_PRIORITIES, TICKET_STATES } from '@skyway/shared/tickets';
import { staff } from './staff.ts';
import { users } from './users.ts';

export const ticketCategory = pgEnum('ticket_category', TICKET_CATEGORIES);
export const ticketPriority = pgEnum('ticket_priority', TICKET_PRIORITIES);
export const ticketState = pgEnum('ticket_state', TICKET_STATES);
export const ticketAuthor = pgEnum('ticket_author', ['customer', 'staff']);
export const ticketCloser = pgEnum('ticket_closer', ['customer', 'staff', 'auto']);

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/** Support tickets (PRODUCT.md section 10): one row each, with what the queue sorts and filters on. */
export const tickets = pgTable(
  'tickets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    subject: text('subject').notNull(),
    category: ticketCategory('category').notNull(),
    priority: ticketPriority('priority').notNull(),
    state: ticketState('state').notNull().default('open'),
    assigneeId: uuid('assignee_id').references(() => staff.id, { onDelete: 'set null' }),
    // Since when it has waited for staff (set when the customer writes to a ticket nobody owes a
    // reply yet, cleared by a staff reply); the queue's order and its waiting-time filter.
    waitingSince: timestamp('waiting_since', { withTimezone: true }),
    // The last staff reply to the customer: a ticket answered and silent past the limit closes.
    answeredAt: timestamp('answered_at', { withTimezone: true }),
    firstResponseAt: timestamp('first_response_at', { withTimezone: true }),
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }).notNull().defaultNow(),
    // Staff replied since the customer last read the thread (the console's mark).
    unreadByCustomer: boolean('unread_by_customer').notNull().default(false),
    // The stored (re-encoded) images of the ticket together.
    attachmentBytes: integer('attachment_bytes').notNull().default(0),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    closedBy: ticketCloser('closed_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    // A customer's list: their tickets, latest activity first.
    index('tickets_user_idx').on(table.userId, table.lastMessageAt.desc(), table.id.desc()),
    // The staff queue: by state, the longest waiting first (then by creation for states that wait
    // for nobody); the filters narrow within it.
    index('tickets_queue_idx').on(table.state, table.waitingSince, table.createdAt, table.id),
    index('tickets_assignee_idx')
      .on(table.assigneeId, table.state)
      .where(sql`${table.assigneeId} is not null`),
    // The auto-close job: answered tickets by the time of their last reply.
    index('tickets_answered_idx')
      .on(table.answeredAt)
      .where(sql`${table.state} in ('answered', 'waiting')`),
    // The dashboard's figures: tickets opened in a period.
    index('tickets_created_idx').on(table.createdAt),
  ],
);

/** The thread: the customer's messages, staff replies and staff's internal notes. */
export const ticketMessages = pgTable(
  'ticket_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ticketId: uuid('ticket_id')
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    author: ticketAuthor('author').notNull(),
    staffId: uuid('staff_id').references(() => staff.id, { onDelete: 'set null' }),
    // Never shown to the customer, never mailed.
    internal: boolean('internal').notNull().default(false),
    body: text('body').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('ticket_messages_ticket_idx').on(table.ticketId, table.createdAt)],
);

/**
 * The images of a message, as re-encoded (no metadata, nothing appended), in the database itself so
 * that several instances and a backup need nothing beside it.
 */
export const ticketAttachments = pgTable(
  'ticket_attachments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ticketId: uuid('ticket_id')
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    messageId: uuid('message_id')
      .notNull()
      .references(() => ticketMessages.id, { onDelete: 'cascade' }),
    mime: text('mime').notNull(),
    size: integer('size').notNull(),
    data: bytea('data').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('ticket_attachments_message_idx').on(table.messageId)],
);

/** Saved answers staff pick from when replying. */
export const savedReplies = pgTable('saved_replies', {
  id: uuid('id').primaryKey().defaultRandom(),
  title: text('title').notNull(),
  body: text('body').notNull(),
  createdBy: uuid('created_by').references(() => staff.id, { onDelete: 'set null' }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export type TicketRow = typeof tickets.$inferSelect;
export type TicketMessageRow = typeof ticketMessages.$inferSelect;
export type SavedReplyRow = typeof savedReplies.$inferSelect;
