import { and, asc, eq, gt, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { mailOutbox, type MailOutboxRow, type MailStatus } from '../../db/schema/index.ts';

export interface NewOutboxMail {
  to: string;
  template: string;
  language: string;
  subject: string;
  text: string;
  html: string;
  userId?: string;
  priority: number;
  status: Extract<MailStatus, 'pending' | 'withheld'>;
  codeExpiresAt?: Date;
  createdAt: Date;
  /** A pending row is born claimed by the instance that wrote it, for its immediate attempt. */
  leaseUntil: Date | null;
}

export async function insertOutboxMail(db: Database, mail: NewOutboxMail): Promise<MailOutboxRow> {
  const [row] = await db
    .insert(mailOutbox)
    .values({ ...mail, nextAttemptAt: mail.createdAt })
    .returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}

const unleased = (now: Date) => or(isNull(mailOutbox.leaseUntil), lte(mailOutbox.leaseUntil, now));

/** Waiting, its next attempt come, and no instance attempting it. */
const due = (now: Date) =>
  and(eq(mailOutbox.status, 'pending'), lte(mailOutbox.nextAttemptAt, now), unleased(now));

/**
 * Claims the most urgent due message for one attempt, or none. SKIP LOCKED lets several instances
 * claim at once without waiting on each other, and the lease keeps every other claim off the row
 * until this attempt is recorded.
 */
export async function claimDueMail(
  db: Database,
  now: Date,
  leaseUntil: Date,
): Promise<MailOutboxRow | undefined> {
  const next = db
    .select({ id: mailOutbox.id })
    .from(mailOutbox)
    .where(and(due(now), or(isNull(mailOutbox.codeExpiresAt), gt(mailOutbox.codeExpiresAt, now))))
    .orderBy(asc(mailOutbox.priority), asc(mailOutbox.nextAttemptAt), asc(mailOutbox.createdAt))
    .limit(1)
    .for('update', { skipLocked: true });
  const [row] = await db
    .update(mailOutbox)
    .set({ leaseUntil })
    .where(inArray(mailOutbox.id, next))
    .returning();
  return row;
}

/** The delivery is done: a code mail's body goes, so that no live code is kept in clear. */
export async function recordDelivered(
  db: Database,
  row: MailOutboxRow,
  delivered: { status: Extract<MailStatus, 'sent' | 'logged'>; at: Date },
): Promise<void> {
  const wipe = row.codeExpiresAt ? { text: null, html: null } : {};
  await db
    .update(mailOutbox)
    .set({
      status: delivered.status,
      sentAt: delivered.at,
      attempts: sql`${mailOutbox.attempts} + 1`,
      leaseUntil: null,
      error: null,
      ...wipe,
    })
    .where(and(eq(mailOutbox.id, row.id), eq(mailOutbox.status, 'pending')));
}

/** A failed attempt: try again at `retryAt`, or, with `giveUp`, never again. */
export async function recordFailedAttempt(
  db: Database,
  id: string,
  failure: { error: string; retryAt: Date; giveUp: boolean },
): Promise<void> {
  await db
    .update(mailOutbox)
    .set({
      status: failure.giveUp ? 'failed' : 'pending',
      attempts: sql`${mailOutbox.attempts} + 1`,
      nextAttemptAt: failure.retryAt,
      leaseUntil: null,
      error: failure.error,
    })
    .where(and(eq(mailOutbox.id, id), eq(mailOutbox.status, 'pending')));
}

/** Code mails whose code has run out before delivery: marked expired, their code dropped. */
export async function expireCodeMails(db: Database, now: Date): Promise<number> {
  const rows = await db
    .update(mailOutbox)
    .set({ status: 'expired', text: null, html: null })
    .where(and(eq(mailOutbox.status, 'pending'), lte(mailOutbox.codeExpiresAt, now), unleased(now)))
    .returning({ id: mailOutbox.id });
  return rows.length;
}

/** Whether any message is due now; a run that finds none may check whether SMTP is back. */
export async function hasDueMail(db: Database, now: Date): Promise<boolean> {
  const [row] = await db.select({ id: mailOutbox.id }).from(mailOutbox).where(due(now)).limit(1);
  return row !== undefined;
}

/** SMTP is back: every waiting message is due now rather than at the end of its backoff. */
export async function makePendingDue(db: Database, now: Date): Promise<number> {
  const rows = await db
    .update(mailOutbox)
    .set({ nextAttemptAt: now })
    .where(and(eq(mailOutbox.status, 'pending'), gt(mailOutbox.nextAttemptAt, now)))
    .returning({ id: mailOutbox.id });
  return rows.length;
}

export interface MailBacklog {
  /** Messages waiting for delivery, those being attempted included. */
  pending: number;
  /** How long the oldest of them has waited; 0 without any. */
  oldestPendingSeconds: number;
  /** Messages given up after the retry window: the attention queue. */
  failed: number;
}

/** The operator's view of the queue, for health checks and metrics. */
export async function mailBacklog(db: Database, now: Date): Promise<MailBacklog> {
  const [row] = await db
    .select({
      pending: sql<number>`count(*) filter (where ${mailOutbox.status} = 'pending')::int`,
      oldest:
        sql<Date | null>`min(${mailOutbox.createdAt}) filter (where ${mailOutbox.status} = 'pending')`.mapWith(
          mailOutbox.createdAt,
        ),
      failed: sql<number>`count(*) filter (where ${mailOutbox.status} = 'failed')::int`,
    })
    .from(mailOutbox)
    .where(inArray(mailOutbox.status, ['pending', 'failed']));
  const oldest = row?.oldest?.getTime() ?? now.getTime();
  return {
    pending: row?.pending ?? 0,
    oldestPendingSeconds: Math.max(0, Math.floor((now.getTime() - oldest) / 1000)),
    failed: row?.failed ?? 0,
  };
}
