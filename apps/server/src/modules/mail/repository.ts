import { and, asc, eq, gt, inArray, isNotNull, isNull, lt, lte, or, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { mailOutbox, type MailOutboxRow, type MailStatus, users } from '../../db/schema/index.ts';

/** A message's rendered content. */
export interface MailBody {
  subject: string;
  text: string;
  html: string;
}

export interface NewOutboxMail extends MailBody {
  to: string;
  template: string;
  language: string;
  userId?: string;
  priority: number;
  status: Extract<MailStatus, 'pending' | 'withheld'>;
  codeExpiresAt?: Date;
  /** Reminders and notices: where the recipient unsubscribes (the List-Unsubscribe header). */
  unsubscribeUrl?: string;
  /** An expiry reminder: the end of access it is about. */
  aboutEnd?: Date;
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

/** A message of a list: its body is the list's body at this index. */
export type NewListedMail = Omit<NewOutboxMail, keyof MailBody> & { body: number };

/** What a listed message sets itself, under these names in its JSON record. */
const LISTED_FIELDS = [
  'to',
  'template',
  'language',
  'userId',
  'priority',
  'status',
  'codeExpiresAt',
  'unsubscribeUrl',
  'aboutEnd',
  'createdAt',
  'leaseUntil',
] as const satisfies readonly (keyof NewListedMail)[];

const listedColumns = sql.join(
  LISTED_FIELDS.map((field) => sql.identifier(mailOutbox[field].name)),
  sql`, `,
);
const listedValues = sql.join(
  LISTED_FIELDS.map((field) => sql`mail.${sql.identifier(field)}`),
  sql`, `,
);
const listedRecord = sql.join(
  LISTED_FIELDS.map((field) => sql`${sql.identifier(field)} ${sql.raw(mailOutbox[field].getSQLType())}`),
  sql`, `,
);

/**
 * Writes a list of messages in one statement, as two JSON parameters: the bodies, each once, and
 * the messages as they are, each naming its body. A list's messages mostly share a body (a job's
 * warning in one language), which is then sent, parsed and held once rather than a thousand times;
 * and any number of messages fits (PostgreSQL takes at most 65,535 parameters).
 */
export async function insertOutboxMails(
  db: Database,
  bodies: MailBody[],
  mails: NewListedMail[],
): Promise<void> {
  const column = (field: keyof MailOutboxRow) => sql.identifier(mailOutbox[field].name);
  await db.execute(sql`
    insert into ${mailOutbox} (${listedColumns}, ${column('nextAttemptAt')}, ${column('subject')},
      ${column('text')}, ${column('html')})
    select ${listedValues}, mail."createdAt", body.subject, body.text, body.html
    from jsonb_to_recordset(${JSON.stringify(mails)}::jsonb) as mail(${listedRecord}, "body" int),
      jsonb_to_record(${JSON.stringify(bodies)}::jsonb -> mail."body") as body(subject text, text text, html text)`);
}

const unleased = (now: Date) => or(isNull(mailOutbox.leaseUntil), lte(mailOutbox.leaseUntil, now));

/** Most urgent first: by priority, then by due time. */
const URGENCY = [asc(mailOutbox.priority), asc(mailOutbox.nextAttemptAt), asc(mailOutbox.createdAt)];
const byUrgency = (a: MailOutboxRow, b: MailOutboxRow) =>
  a.priority - b.priority ||
  a.nextAttemptAt.getTime() - b.nextAttemptAt.getTime() ||
  a.createdAt.getTime() - b.createdAt.getTime();

/** Waiting, its next attempt come, and no instance attempting it. */
const due = (now: Date) =>
  and(eq(mailOutbox.status, 'pending'), lte(mailOutbox.nextAttemptAt, now), unleased(now));

/**
 * Still true: not an expiry reminder, or one whose account still ends when it says. Timestamps are
 * compared to the millisecond, as the reminder's end came through JavaScript.
 */
const stillTrue = sql`(${mailOutbox.aboutEnd} is null or exists (select 1 from ${users}
  where ${users.id} = ${mailOutbox.userId}
    and date_trunc('milliseconds', ${users.expireAt}) = date_trunc('milliseconds', ${mailOutbox.aboutEnd})))`;

/**
 * Claims up to `limit` of the most urgent due messages for one attempt each, most urgent first.
 * SKIP LOCKED lets several instances claim at once without waiting on each other, and the lease keeps
 * every other claim off the rows until their attempts are recorded. `= any(array(…))` runs the
 * subquery once: PostgreSQL may run an `in (…)` subquery more than once, and each run would claim
 * `limit` more rows.
 */
export async function claimDueMail(
  db: Database,
  now: Date,
  leaseUntil: Date,
  limit: number,
): Promise<MailOutboxRow[]> {
  const next = db
    .select({ id: mailOutbox.id })
    .from(mailOutbox)
    .where(and(due(now), or(isNull(mailOutbox.codeExpiresAt), gt(mailOutbox.codeExpiresAt, now))))
    .orderBy(...URGENCY)
    .limit(limit)
    .for('update', { skipLocked: true });
  const rows = await db
    .update(mailOutbox)
    .set({ leaseUntil })
    .where(sql`${mailOutbox.id} = any(array(${next}))`)
    .returning();
  // RETURNING follows no order.
  return rows.sort(byUrgency);
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

/**
 * The expiry reminders among rows this instance has just claimed whose account's end has moved since
 * they were queued (a renewal, or staff changing its time, while the reminder waited for SMTP), or
 * which lost their account: cancelled rather than delivered. Answers their ids. Only claimed rows are
 * looked at, so a run never reads the whole queue, and account mail costs no statement at all.
 */
export async function cancelOutdatedReminders(db: Database, claimed: MailOutboxRow[]): Promise<Set<string>> {
  const reminders = claimed.filter((row) => row.aboutEnd !== null).map((row) => row.id);
  if (reminders.length === 0) return new Set();
  const rows = await db
    .update(mailOutbox)
    .set({ status: 'cancelled', leaseUntil: null })
    .where(and(inArray(mailOutbox.id, reminders), eq(mailOutbox.status, 'pending'), sql`not ${stillTrue}`))
    .returning({ id: mailOutbox.id });
  return new Set(rows.map((row) => row.id));
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

/**
 * The account's messages still waiting in the outbox that `which` names, but not one an instance is
 * delivering this moment (that attempt ends first): cancelled.
 */
async function cancelWaiting(db: Database, userId: string, now: Date, which: SQL): Promise<void> {
  await db
    .update(mailOutbox)
    .set({ status: 'cancelled', leaseUntil: null })
    .where(
      and(
        eq(mailOutbox.userId, userId),
        eq(mailOutbox.status, 'pending'),
        which,
        or(isNull(mailOutbox.leaseUntil), lt(mailOutbox.leaseUntil, now)),
      ),
    );
}

/** It unsubscribed: the account's waiting reminders and notices (mail with an unsubscribe link). */
export const cancelWaitingListMail = (db: Database, userId: string, now: Date) =>
  cancelWaiting(db, userId, now, isNotNull(mailOutbox.unsubscribeUrl));
