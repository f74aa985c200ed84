import { and, eq, gt, inArray, isNull, lte, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import {
  deviceSlots,
  telegramBindTokens,
  telegramBot,
  telegramLinks,
  telegramOutbox,
  type TelegramOutboxRow,
  telegramStaffLinks,
  users,
} from '../../db/schema/index.ts';

export type TelegramBotRow = typeof telegramBot.$inferSelect;

export async function findBot(db: Database): Promise<TelegramBotRow | undefined> {
  const [row] = await db.select().from(telegramBot).where(eq(telegramBot.id, 1));
  return row;
}

/** Saves the bot's sealed token and name; a new token starts its updates from the beginning. */
export async function storeBot(
  db: Database,
  sealedToken: string,
  username: string,
  now: Date,
): Promise<void> {
  await db
    .insert(telegramBot)
    .values({ id: 1, sealedToken, username, updatedAt: now })
    .onConflictDoUpdate({
      target: telegramBot.id,
      set: { sealedToken, username, updateOffset: 0, updatedAt: now },
    });
}

/**
 * Takes or keeps the worker lease for `workerId` until `until`: true while this instance is the one
 * polling and sending. One statement, so two instances never both hold it.
 */
export async function holdWorkerLease(
  db: Database,
  workerId: string,
  now: Date,
  until: Date,
): Promise<boolean> {
  const rows = await db
    .update(telegramBot)
    .set({ workerId, workerLeaseUntil: until })
    .where(
      and(
        eq(telegramBot.id, 1),
        sql`(${telegramBot.workerId} = ${workerId} or ${telegramBot.workerLeaseUntil} is null or ${telegramBot.workerLeaseUntil} <= ${now})`,
      ),
    )
    .returning({ id: telegramBot.id });
  return rows.length > 0;
}

export async function releaseWorkerLease(db: Database, workerId: string): Promise<void> {
  await db
    .update(telegramBot)
    .set({ workerId: null, workerLeaseUntil: null })
    .where(and(eq(telegramBot.id, 1), eq(telegramBot.workerId, workerId)));
}

/** Moves the polling offset forward (never back), only while `workerId` holds the lease. */
export async function storeUpdateOffset(db: Database, workerId: string, offset: number): Promise<void> {
  await db
    .update(telegramBot)
    .set({ updateOffset: sql`greatest(${telegramBot.updateOffset}, ${offset})` })
    .where(and(eq(telegramBot.id, 1), eq(telegramBot.workerId, workerId)));
}

/** The Telegram queue's kind of staff alerts and digests. */
export const STAFF_ALERT_MESSAGE = 'staff_alert';

/** Whom a bind token binds: a customer's account or a member of staff. */
export type BindOwner = { userId: string } | { staffId: string };

const tokensOf = (owner: BindOwner) =>
  'userId' in owner
    ? eq(telegramBindTokens.userId, owner.userId)
    : eq(telegramBindTokens.staffId, owner.staffId);

export async function storeBindToken(
  db: Database,
  tokenHash: string,
  owner: BindOwner,
  expiresAt: Date,
): Promise<void> {
  // One link at a time: a new one replaces those not yet used.
  await db.delete(telegramBindTokens).where(and(tokensOf(owner), isNull(telegramBindTokens.usedAt)));
  await db.insert(telegramBindTokens).values({ tokenHash, ...owner, expiresAt });
}

/** Marks an unused, unexpired token used and answers whom it binds; undefined for any other token. */
export async function useBindToken(
  db: Database,
  tokenHash: string,
  now: Date,
): Promise<BindOwner | undefined> {
  const [row] = await db
    .update(telegramBindTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(telegramBindTokens.tokenHash, tokenHash),
        isNull(telegramBindTokens.usedAt),
        gt(telegramBindTokens.expiresAt, now),
      ),
    )
    .returning({ userId: telegramBindTokens.userId, staffId: telegramBindTokens.staffId });
  if (row?.userId) return { userId: row.userId };
  if (row?.staffId) return { staffId: row.staffId };
  return undefined;
}

/** Binds a member's alerts to the chat, replacing either side's earlier binding. */
export async function bindStaffChat(db: Database, staffId: string, chatId: number, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(telegramStaffLinks).where(eq(telegramStaffLinks.chatId, chatId));
    await tx
      .insert(telegramStaffLinks)
      .values({ staffId, chatId, createdAt: now })
      .onConflictDoUpdate({ target: telegramStaffLinks.staffId, set: { chatId, createdAt: now } });
  });
}

export async function findStaffLink(db: Database, staffId: string) {
  const [row] = await db.select().from(telegramStaffLinks).where(eq(telegramStaffLinks.staffId, staffId));
  return row;
}

/** The chats of members' alerts, by member. */
export async function staffChats(db: Database, staffIds: string[]): Promise<Map<string, number>> {
  if (staffIds.length === 0) return new Map();
  const rows = await db
    .select()
    .from(telegramStaffLinks)
    .where(inArray(telegramStaffLinks.staffId, staffIds));
  return new Map(rows.map((row) => [row.staffId, row.chatId]));
}

/** Cancels what still waits for a chat: all of it, or only what `only` picks. */
async function cancelPending(db: Database, chatId: number, only?: SQL): Promise<void> {
  await db
    .update(telegramOutbox)
    .set({ status: 'cancelled' })
    .where(and(eq(telegramOutbox.chatId, chatId), eq(telegramOutbox.status, 'pending'), only));
}

/** A member unbinds from the back office: the link goes, and the alerts still waiting for the chat. */
export async function unbindStaffChat(db: Database, staffId: string): Promise<boolean> {
  const [link] = await db
    .delete(telegramStaffLinks)
    .where(eq(telegramStaffLinks.staffId, staffId))
    .returning();
  if (link) await cancelPending(db, link.chatId, eq(telegramOutbox.kind, STAFF_ALERT_MESSAGE));
  return Boolean(link);
}

/** A customer unbinds from the console: the link goes, and the account's messages still waiting. */
export async function unbindCustomerChat(db: Database, userId: string): Promise<void> {
  const [link] = await db.delete(telegramLinks).where(eq(telegramLinks.userId, userId)).returning();
  if (link) await cancelPending(db, link.chatId, eq(telegramOutbox.userId, userId));
}

/** Binds the account to the chat, replacing either side's earlier binding. */
export async function bindChat(db: Database, userId: string, chatId: number, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(telegramLinks).where(eq(telegramLinks.chatId, chatId));
    await tx
      .insert(telegramLinks)
      .values({ userId, chatId, createdAt: now })
      .onConflictDoUpdate({ target: telegramLinks.userId, set: { chatId, createdAt: now } });
  });
}

export async function findLinkOfUser(db: Database, userId: string) {
  const [row] = await db.select().from(telegramLinks).where(eq(telegramLinks.userId, userId));
  return row;
}

/** Whether a bound account takes reminders and notices by Telegram alone; false when it is not bound. */
export async function setMailOff(db: Database, userId: string, mailOff: boolean): Promise<boolean> {
  const rows = await db
    .update(telegramLinks)
    .set({ mailOff })
    .where(eq(telegramLinks.userId, userId))
    .returning();
  return rows.length > 0;
}

/** The account bound to a chat, as /status reads it. */
export async function findUserOfChat(db: Database, chatId: number) {
  const [row] = await db
    .select({ user: users })
    .from(telegramLinks)
    .innerJoin(users, eq(users.id, telegramLinks.userId))
    .where(eq(telegramLinks.chatId, chatId));
  return row?.user;
}

/**
 * Unbinds a chat, from a customer's account and from a member's alerts, and cancels what still waits
 * for it (the bot was blocked, or /unbind): what it unbound.
 */
export async function unbindChat(
  db: Database,
  chatId: number,
): Promise<{ customer: boolean; staffId: string | undefined }> {
  const customers = await db.delete(telegramLinks).where(eq(telegramLinks.chatId, chatId)).returning();
  const [member] = await db
    .delete(telegramStaffLinks)
    .where(eq(telegramStaffLinks.chatId, chatId))
    .returning();
  await cancelPending(db, chatId);
  return { customer: customers.length > 0, staffId: member?.staffId };
}

export interface NewTelegramMessage {
  chatId: number;
  userId?: string;
  kind: string;
  text: string;
  priority: number;
}

/** Writes messages to the queue, due now, in one statement per 1,000. */
export async function queueTelegramMessages(
  db: Database,
  messages: NewTelegramMessage[],
  now: Date,
): Promise<void> {
  for (let start = 0; start < messages.length; start += 1000) {
    await db.insert(telegramOutbox).values(
      messages.slice(start, start + 1000).map((message) => ({
        ...message,
        nextAttemptAt: now,
        createdAt: now,
      })),
    );
  }
}

/**
 * The next due messages, most urgent first, at most one per chat (the per-chat limit makes a second
 * one wait anyway). Only the worker-lease holder claims, so no two instances send the same row.
 */
export async function dueTelegramMessages(
  db: Database,
  now: Date,
  limit: number,
): Promise<TelegramOutboxRow[]> {
  const rows = await db
    .select()
    .from(telegramOutbox)
    .where(and(eq(telegramOutbox.status, 'pending'), lte(telegramOutbox.nextAttemptAt, now)))
    .orderBy(telegramOutbox.priority, telegramOutbox.nextAttemptAt, telegramOutbox.createdAt)
    .limit(limit * 4);
  const chats = new Set<number>();
  return rows.filter((row) => !chats.has(row.chatId) && chats.add(row.chatId)).slice(0, limit);
}

export async function recordTelegramSent(db: Database, ids: string[], now: Date): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(telegramOutbox)
    .set({ status: 'sent', sentAt: now, attempts: sql`${telegramOutbox.attempts} + 1`, error: null })
    .where(inArray(telegramOutbox.id, ids));
}

export async function recordTelegramAttempt(
  db: Database,
  id: string,
  outcome: { status: 'pending' | 'failed' | 'cancelled'; nextAttemptAt: Date; error: string },
): Promise<void> {
  await db
    .update(telegramOutbox)
    .set({ ...outcome, attempts: sql`${telegramOutbox.attempts} + 1` })
    .where(eq(telegramOutbox.id, id));
}

/** Pending count and the oldest pending message's age in seconds (health and alerts). */
export async function telegramBacklog(
  db: Database,
  now: Date,
): Promise<{ pending: number; oldestSeconds: number }> {
  const [row] = await db
    .select({
      pending: sql<number>`count(*)::int`,
      oldest: sql<Date | null>`min(${telegramOutbox.createdAt})`,
    })
    .from(telegramOutbox)
    .where(eq(telegramOutbox.status, 'pending'));
  const oldest = row?.oldest ? new Date(row.oldest) : null;
  return {
    pending: row?.pending ?? 0,
    oldestSeconds: oldest ? Math.max(0, Math.floor((now.getTime() - oldest.getTime()) / 1000)) : 0,
  };
}

/** The account's devices in use: its active connections whose link a client has fetched. */
export async function countDevicesInUse(db: Database, userId: string): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(deviceSlots)
    .where(
      and(
        eq(deviceSlots.userId, userId),
        eq(deviceSlots.active, true),
        sql`${deviceSlots.lastFetchAt} is not null`,
      ),
    );
  return row?.count ?? 0;
}
