import { and, asc, count, desc, eq, gt, inArray, isNull, lte, type SQL, sql } from 'drizzle-orm';
import type { TicketCategory, TicketPriority, TicketState } from '@skyway/shared/tickets';
import type { Database } from '../../db/client.ts';
import { countUpToCap } from '../../db/lists.ts';
import {
  savedReplies,
  staff,
  ticketAttachments,
  ticketMessages,
  type TicketRow,
  tickets,
  users,
} from '../../db/schema/index.ts';
import type { CleanImage } from './images.ts';

export interface Page {
  limit: number;
  offset: number;
}

/**
 * Makes an account's ticket writes take turns (the limits are counted, then written): a
 * transaction-scoped advisory lock on the account, which works alike on PostgreSQL and PGlite.
 */
export async function lockAccountTickets(tx: Database, userId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`tickets:${userId}`}, 0))`);
}

export async function countOpenTickets(db: Database, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(tickets)
    .where(and(eq(tickets.userId, userId), sql`${tickets.state} <> 'closed'`));
  return row?.n ?? 0;
}

/** The messages an account wrote since a time, over all its tickets. */
export async function countCustomerMessagesSince(db: Database, userId: string, since: Date): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(ticketMessages)
    .innerJoin(tickets, eq(tickets.id, ticketMessages.ticketId))
    .where(
      and(
        eq(tickets.userId, userId),
        eq(ticketMessages.author, 'customer'),
        gt(ticketMessages.createdAt, since),
      ),
    );
  return row?.n ?? 0;
}

export async function insertTicket(
  tx: Database,
  values: {
    userId: string;
    subject: string;
    category: TicketCategory;
    priority: TicketPriority;
    now: Date;
  },
): Promise<TicketRow> {
  const [row] = await tx
    .insert(tickets)
    .values({
      userId: values.userId,
      subject: values.subject,
      category: values.category,
      priority: values.priority,
      state: 'open',
      waitingSince: values.now,
      lastMessageAt: values.now,
      createdAt: values.now,
    })
    .returning();
  if (!row) throw new Error('ticket not written');
  return row;
}

/** A message and its images; the ticket's count of stored bytes grows by theirs. */
export async function insertMessage(
  tx: Database,
  message: {
    ticketId: string;
    author: 'customer' | 'staff';
    staffId?: string;
    internal?: boolean;
    body: string;
    images?: readonly CleanImage[];
    now: Date;
  },
): Promise<string> {
  const [row] = await tx
    .insert(ticketMessages)
    .values({
      ticketId: message.ticketId,
      author: message.author,
      staffId: message.staffId ?? null,
      internal: message.internal ?? false,
      body: message.body,
      createdAt: message.now,
    })
    .returning({ id: ticketMessages.id });
  if (!row) throw new Error('message not written');
  const images = message.images ?? [];
  if (images.length > 0) {
    await tx.insert(ticketAttachments).values(
      images.map((image) => ({
        ticketId: message.ticketId,
        messageId: row.id,
        mime: image.mime,
        size: image.data.length,
        data: image.data,
        createdAt: message.now,
      })),
    );
    const bytes = images.reduce((sum, image) => sum + image.data.length, 0);
    await tx
      .update(tickets)
      .set({ attachmentBytes: sql`${tickets.attachmentBytes} + ${bytes}` })
      .where(eq(tickets.id, message.ticketId));
  }
  return row.id;
}

/** The ticket, locked for a change; `userId` makes it the customer's own or nothing. */
export async function lockTicket(tx: Database, id: string, userId?: string): Promise<TicketRow | undefined> {
  const [row] = await tx
    .select()
    .from(tickets)
    .where(and(eq(tickets.id, id), userId === undefined ? undefined : eq(tickets.userId, userId)))
    .for('update');
  return row;
}

export async function findTicket(db: Database, id: string, userId?: string): Promise<TicketRow | undefined> {
  const [row] = await db
    .select()
    .from(tickets)
    .where(and(eq(tickets.id, id), userId === undefined ? undefined : eq(tickets.userId, userId)));
  return row;
}

export async function updateTicket(
  tx: Database,
  id: string,
  set: Partial<typeof tickets.$inferInsert>,
): Promise<TicketRow> {
  const [row] = await tx.update(tickets).set(set).where(eq(tickets.id, id)).returning();
  if (!row) throw new Error('ticket vanished');
  return row;
}

/** A customer's tickets, latest activity first, with how many hold a reply they have not read. */
export async function customerTickets(db: Database, userId: string, page: Page) {
  const mine = eq(tickets.userId, userId);
  const [rows, [totals]] = await Promise.all([
    db
      .select()
      .from(tickets)
      .where(mine)
      .orderBy(desc(tickets.lastMessageAt), desc(tickets.id))
      .limit(page.limit)
      .offset(page.offset),
    db
      .select({
        total: count(),
        unread: sql<number>`count(*) filter (where ${tickets.unreadByCustomer})::int`,
      })
      .from(tickets)
      .where(mine),
  ]);
  return { rows, total: totals?.total ?? 0, unread: totals?.unread ?? 0 };
}

export interface ThreadMessage {
  id: string;
  author: 'customer' | 'staff';
  staffId: string | null;
  staffEmail: string | null;
  internal: boolean;
  body: string;
  createdAt: Date;
  attachments: { id: string; mime: string; size: number }[];
}

/** The thread, oldest first; internal notes only when asked for (staff's view). */
export async function threadMessages(
  db: Database,
  ticketId: string,
  withInternal: boolean,
): Promise<ThreadMessage[]> {
  const messages = await db
    .select({
      id: ticketMessages.id,
      author: ticketMessages.author,
      staffId: ticketMessages.staffId,
      staffEmail: staff.email,
      internal: ticketMessages.internal,
      body: ticketMessages.body,
      createdAt: ticketMessages.createdAt,
    })
    .from(ticketMessages)
    .leftJoin(staff, eq(staff.id, ticketMessages.staffId))
    .where(
      and(
        eq(ticketMessages.ticketId, ticketId),
        withInternal ? undefined : eq(ticketMessages.internal, false),
      ),
    )
    .orderBy(asc(ticketMessages.createdAt), asc(ticketMessages.id));
  const ids = messages.map((message) => message.id);
  const attachments =
    ids.length === 0
      ? []
      : await db
          .select({
            id: ticketAttachments.id,
            messageId: ticketAttachments.messageId,
            mime: ticketAttachments.mime,
            size: ticketAttachments.size,
          })
          .from(ticketAttachments)
          .where(inArray(ticketAttachments.messageId, ids))
          .orderBy(asc(ticketAttachments.createdAt), asc(ticketAttachments.id));
  return messages.map((message) => ({
    ...message,
    attachments: attachments
      .filter((attachment) => attachment.messageId === message.id)
      .map(({ id, mime, size }) => ({ id, mime, size })),
  }));
}

/**
 * An attachment's bytes; with `userId`, only when the ticket is that customer's and the message is
 * one they can see (staff attach nothing to internal notes today, but the rule holds regardless).
 */
export async function findAttachment(db: Database, id: string, userId?: string) {
  const [row] = await db
    .select({ mime: ticketAttachments.mime, data: ticketAttachments.data })
    .from(ticketAttachments)
    .innerJoin(tickets, eq(tickets.id, ticketAttachments.ticketId))
    .innerJoin(ticketMessages, eq(ticketMessages.id, ticketAttachments.messageId))
    .where(
      and(
        eq(ticketAttachments.id, id),
        userId === undefined
          ? undefined
          : and(eq(tickets.userId, userId), eq(ticketMessages.internal, false)),
      ),
    );
  return row;
}

export interface QueueFilter {
  state: TicketState;
  category?: TicketCategory;
  priority?: TicketPriority;
  /** A member's id, or `none` for nobody's. */
  assignee?: string;
  /** Waiting for staff since this time or earlier. */
  waitingBefore?: Date;
}

const queueCondition = (filter: QueueFilter): SQL | undefined =>
  and(
    eq(tickets.state, filter.state),
    filter.category ? eq(tickets.category, filter.category) : undefined,
    filter.priority ? eq(tickets.priority, filter.priority) : undefined,
    filter.assignee === 'none'
      ? isNull(tickets.assigneeId)
      : filter.assignee
        ? eq(tickets.assigneeId, filter.assignee)
        : undefined,
    filter.waitingBefore ? lte(tickets.waitingSince, filter.waitingBefore) : undefined,
  );

/**
 * The staff queue: the longest waiting first (`tickets_queue_idx` serves the order for each state,
 * the filters narrow it), with the customer's address and the assignee's; the count stops at the cap.
 */
export async function ticketQueue(db: Database, filter: QueueFilter, page: Page) {
  const where = queueCondition(filter);
  const order = [asc(tickets.waitingSince), asc(tickets.createdAt), asc(tickets.id)];
  const [rows, counted] = await Promise.all([
    db
      .select({ ticket: tickets, customerEmail: users.email, assigneeEmail: staff.email })
      .from(tickets)
      .innerJoin(users, eq(users.id, tickets.userId))
      .leftJoin(staff, eq(staff.id, tickets.assigneeId))
      .where(where)
      .orderBy(...order)
      .limit(page.limit)
      .offset(page.offset),
    countUpToCap(db, (limit) =>
      db
        .select({ one: sql`1` })
        .from(tickets)
        .where(where)
        .orderBy(...order)
        .limit(limit)
        .as('capped'),
    ),
  ]);
  return { rows, ...counted };
}

/** One ticket with the customer's address and the assignee's, for staff. */
export async function staffTicket(db: Database, id: string) {
  const [row] = await db
    .select({ ticket: tickets, customerEmail: users.email, assigneeEmail: staff.email })
    .from(tickets)
    .innerJoin(users, eq(users.id, tickets.userId))
    .leftJoin(staff, eq(staff.id, tickets.assigneeId))
    .where(eq(tickets.id, id));
  return row;
}

/** The customer's address and language, for the mail of a reply. */
export async function ticketCustomer(db: Database, userId: string) {
  const [row] = await db
    .select({ email: users.email, language: users.language })
    .from(users)
    .where(eq(users.id, userId));
  return row;
}

/** Closes the answered tickets whose last reply is older than `cutoff`; the ids closed. */
export async function closeSilentTickets(db: Database, cutoff: Date, now: Date): Promise<string[]> {
  const rows = await db
    .update(tickets)
    .set({ state: 'closed', closedAt: now, closedBy: 'auto', waitingSince: null })
    .where(and(inArray(tickets.state, ['answered', 'waiting']), lte(tickets.answeredAt, cutoff)))
    .returning({ id: tickets.id });
  return rows.map((row) => row.id);
}

/** The support figures since a time: medians in seconds, over tickets opened since then. */
export async function ticketTimes(db: Database, since: Date) {
  const [row] = await db
    .select({
      opened: count(),
      firstResponse: sql<
        number | null
      >`percentile_cont(0.5) within group (order by extract(epoch from ${tickets.firstResponseAt} - ${tickets.createdAt})) filter (where ${tickets.firstResponseAt} is not null)`,
      resolution: sql<
        number | null
      >`percentile_cont(0.5) within group (order by extract(epoch from ${tickets.closedAt} - ${tickets.createdAt})) filter (where ${tickets.closedAt} is not null)`,
    })
    .from(tickets)
    .where(gt(tickets.createdAt, since));
  const [waiting] = await db.select({ n: count() }).from(tickets).where(eq(tickets.state, 'open'));
  const number = (value: unknown) => (value === null || value === undefined ? null : Number(value));
  return {
    opened: row?.opened ?? 0,
    waiting: waiting?.n ?? 0,
    firstResponse: number(row?.firstResponse),
    resolution: number(row?.resolution),
  };
}

export const listSavedReplies = (db: Database) =>
  db.select().from(savedReplies).orderBy(asc(savedReplies.title), asc(savedReplies.id));

export async function insertSavedReply(
  tx: Database,
  values: { title: string; body: string; createdBy: string; now: Date },
) {
  const [row] = await tx
    .insert(savedReplies)
    .values({ title: values.title, body: values.body, createdBy: values.createdBy, updatedAt: values.now })
    .returning();
  if (!row) throw new Error('saved reply not written');
  return row;
}

export async function updateSavedReply(
  tx: Database,
  id: string,
  values: { title: string; body: string; now: Date },
) {
  const [row] = await tx
    .update(savedReplies)
    .set({ title: values.title, body: values.body, updatedAt: values.now })
    .where(eq(savedReplies.id, id))
    .returning();
  return row;
}

export async function deleteSavedReply(tx: Database, id: string) {
  const [row] = await tx.delete(savedReplies).where(eq(savedReplies.id, id)).returning();
  return row;
}
