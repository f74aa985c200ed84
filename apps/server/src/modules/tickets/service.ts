import type { z } from 'zod';
import type { ticketCreateRequest } from '@skyway/shared/schemas/tickets';
import type { savedReplyRequest, staffTicketReplyRequest } from '@skyway/shared/schemas/admin/tickets';
import { can } from '@skyway/shared/staff';
import {
  TICKET_ATTACHMENTS_MAX_BYTES,
  TICKET_AUTO_CLOSE_DAYS,
  TICKET_MESSAGES_PER_HOUR,
  TICKET_OPEN_MAX,
} from '@skyway/shared/tickets';
import type { Database } from '../../db/client.ts';
import type { TicketRow } from '../../db/schema/index.ts';
import { AppError } from '../../http/errors.ts';
import { type Actor, recordAudit, type StaffActor } from '../audit/repository.ts';
import { findStaff } from '../staff/repository.ts';
import { type CleanImage, cleanImages } from './images.ts';
import { notifyTicketReply, type TicketNotifyDeps } from './notify.ts';
import {
  closeSilentTickets,
  countCustomerMessagesSince,
  countOpenTickets,
  deleteSavedReply,
  insertMessage,
  insertSavedReply,
  insertTicket,
  lockAccountTickets,
  lockTicket,
  updateSavedReply,
  updateTicket,
} from './repository.ts';

export const TICKETS_JOB = 'tickets';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

type NewTicket = z.output<typeof ticketCreateRequest>;

/** The account's messages this hour are at the limit: refused before anything is written. */
async function checkMessageRate(tx: Database, userId: string, now: Date): Promise<void> {
  const recent = await countCustomerMessagesSince(tx, userId, new Date(now.getTime() - HOUR_MS));
  if (recent >= TICKET_MESSAGES_PER_HOUR) throw new AppError(429, 'ticket_message_limit');
}

function checkRoom(ticket: Pick<TicketRow, 'attachmentBytes'>, images: readonly CleanImage[]): void {
  const adding = images.reduce((sum, image) => sum + image.data.length, 0);
  if (adding > 0 && ticket.attachmentBytes + adding > TICKET_ATTACHMENTS_MAX_BYTES) {
    throw new AppError(400, 'ticket_attachments_full');
  }
}

/**
 * A customer opens a ticket with its first message. The images are checked and cleaned before the
 * transaction; the account's limits are counted under its lock, so two at once cannot both slip in.
 */
export async function openTicket(
  db: Database,
  userId: string,
  input: NewTicket,
  now: Date,
): Promise<TicketRow> {
  const images = await cleanImages(input.images);
  return db.transaction(async (tx) => {
    await lockAccountTickets(tx, userId);
    if ((await countOpenTickets(tx, userId)) >= TICKET_OPEN_MAX) throw new AppError(409, 'ticket_open_limit');
    await checkMessageRate(tx, userId, now);
    const ticket = await insertTicket(tx, { userId, ...input, now });
    checkRoom(ticket, images);
    await insertMessage(tx, { ticketId: ticket.id, author: 'customer', body: input.message, images, now });
    return ticket;
  });
}

/** The customer writes again: the ticket waits for staff (since now, unless it already did). */
export async function customerReply(
  db: Database,
  userId: string,
  input: { id: string; message: string; images: readonly string[] },
  now: Date,
): Promise<void> {
  const images = await cleanImages(input.images);
  await db.transaction(async (tx) => {
    await lockAccountTickets(tx, userId);
    const ticket = await lockTicket(tx, input.id, userId);
    if (!ticket) throw new AppError(404, 'not_found');
    if (ticket.state === 'closed') throw new AppError(409, 'ticket_closed');
    await checkMessageRate(tx, userId, now);
    checkRoom(ticket, images);
    await insertMessage(tx, { ticketId: ticket.id, author: 'customer', body: input.message, images, now });
    await updateTicket(tx, ticket.id, {
      state: 'open',
      waitingSince: ticket.waitingSince ?? now,
      lastMessageAt: now,
    });
  });
}

/** The customer closes their ticket (closing a closed one changes nothing). */
export async function closeByCustomer(db: Database, userId: string, id: string, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    const ticket = await lockTicket(tx, id, userId);
    if (!ticket) throw new AppError(404, 'not_found');
    if (ticket.state === 'closed') return;
    await updateTicket(tx, id, { state: 'closed', closedAt: now, closedBy: 'customer', waitingSince: null });
  });
}

/** The customer opened the thread: its replies are read. */
export async function markRead(db: Database, ticket: TicketRow): Promise<void> {
  if (ticket.unreadByCustomer) await updateTicket(db, ticket.id, { unreadByCustomer: false });
}

/** What audit rows keep of a ticket: its routing, never what anyone wrote. */
const audited = (ticket: TicketRow) => ({
  state: ticket.state,
  assignee_id: ticket.assigneeId,
  priority: ticket.priority,
  category: ticket.category,
});

async function staffChange(
  db: Database,
  actor: Actor,
  id: string,
  now: Date,
  action: string,
  change: (tx: Database, ticket: TicketRow) => Promise<{ after: TicketRow; note?: Record<string, unknown> }>,
): Promise<{ before: TicketRow; after: TicketRow }> {
  return db.transaction(async (tx) => {
    const before = await lockTicket(tx, id);
    if (!before) throw new AppError(404, 'not_found');
    const { after, note } = await change(tx, before);
    await recordAudit(
      tx,
      actor,
      {
        action,
        targetType: 'ticket',
        targetId: id,
        before: audited(before),
        after: { ...audited(after), ...note },
      },
      now,
    );
    return { before, after };
  });
}

/**
 * A staff reply. To the customer: the ticket is answered (or waits for the customer when staff ask
 * for something) and the customer is told. An internal note changes nothing the customer sees.
 */
export async function staffReply(
  deps: TicketNotifyDeps,
  actor: StaffActor,
  id: string,
  input: z.output<typeof staffTicketReplyRequest>,
  now: Date,
): Promise<void> {
  const { after } = await staffChange(
    deps.db,
    actor,
    id,
    now,
    input.internal ? 'ticket.note' : 'ticket.reply',
    async (tx, ticket) => {
      if (ticket.state === 'closed' && !input.internal) throw new AppError(409, 'ticket_closed');
      const messageId = await insertMessage(tx, {
        ticketId: id,
        author: 'staff',
        staffId: actor.staffId,
        internal: input.internal,
        body: input.message,
        now,
      });
      if (input.internal) return { after: ticket, note: { message_id: messageId, internal: true } };
      const after = await updateTicket(tx, id, {
        state: input.wait_for_customer ? 'waiting' : 'answered',
        waitingSince: null,
        answeredAt: now,
        firstResponseAt: ticket.firstResponseAt ?? now,
        lastMessageAt: now,
        unreadByCustomer: true,
        assigneeId: ticket.assigneeId ?? actor.staffId,
      });
      return { after, note: { message_id: messageId } };
    },
  );
  if (!input.internal) await notifyTicketReply(deps, after, input.message);
}

/** Gives the ticket to a member who may reply (active, with `tickets.reply`), or to nobody. */
export async function assignTicket(
  db: Database,
  actor: StaffActor,
  id: string,
  staffId: string | null,
  now: Date,
): Promise<void> {
  if (staffId !== null) {
    const member = await findStaff(db, staffId);
    if (!member || member.disabledAt !== null || !can(member.role, 'tickets.reply')) {
      throw new AppError(400, 'ticket_assignee_invalid', { field: 'staff_id' });
    }
  }
  await staffChange(db, actor, id, now, 'ticket.assign', async (tx) => ({
    after: await updateTicket(tx, id, { assigneeId: staffId }),
  }));
}

export async function closeByStaff(db: Database, actor: StaffActor, id: string, now: Date): Promise<void> {
  await staffChange(db, actor, id, now, 'ticket.close', async (tx, ticket) => ({
    after:
      ticket.state === 'closed'
        ? ticket
        : await updateTicket(tx, id, {
            state: 'closed',
            closedAt: now,
            closedBy: 'staff',
            waitingSince: null,
          }),
  }));
}

/** The scheduled job: tickets staff answered that heard nothing back for TICKET_AUTO_CLOSE_DAYS close. */
export async function runTicketsJob(db: Database, now: Date): Promise<{ closed: number }> {
  const closed = await closeSilentTickets(db, new Date(now.getTime() - TICKET_AUTO_CLOSE_DAYS * DAY_MS), now);
  return { closed: closed.length };
}

type SavedReplyInput = z.output<typeof savedReplyRequest>;

export async function createSavedReply(db: Database, actor: StaffActor, input: SavedReplyInput, now: Date) {
  return db.transaction(async (tx) => {
    const row = await insertSavedReply(tx, { ...input, createdBy: actor.staffId, now });
    await recordAudit(
      tx,
      actor,
      {
        action: 'saved_reply.create',
        targetType: 'saved_reply',
        targetId: row.id,
        before: null,
        after: { title: row.title },
      },
      now,
    );
    return row;
  });
}

export async function changeSavedReply(
  db: Database,
  actor: StaffActor,
  id: string,
  input: SavedReplyInput,
  now: Date,
) {
  return db.transaction(async (tx) => {
    const row = await updateSavedReply(tx, id, { ...input, now });
    if (!row) throw new AppError(404, 'not_found');
    await recordAudit(
      tx,
      actor,
      {
        action: 'saved_reply.change',
        targetType: 'saved_reply',
        targetId: id,
        before: null,
        after: { title: row.title },
      },
      now,
    );
    return row;
  });
}

export async function removeSavedReply(
  db: Database,
  actor: StaffActor,
  id: string,
  now: Date,
): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await deleteSavedReply(tx, id);
    if (!row) throw new AppError(404, 'not_found');
    await recordAudit(
      tx,
      actor,
      {
        action: 'saved_reply.delete',
        targetType: 'saved_reply',
        targetId: id,
        before: { title: row.title },
        after: { removed: true },
      },
      now,
    );
  });
}
