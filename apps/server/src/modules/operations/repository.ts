import { and, count, eq, isNotNull, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import type { MailStatus } from '@skyway/shared/mail';
import type { SortOrder } from '@skyway/shared/schemas/admin/common';
import type { Database } from '../../db/client.ts';
import { inOrder } from '../../db/lists.ts';
import { mailOutbox, type MailOutboxRow } from '../../db/schema/index.ts';

export interface MailFilter {
  status?: MailStatus;
  template?: string;
  to?: string;
  order?: SortOrder;
}

/** A page of the outbox, newest first (`mail_outbox_created_idx`, or `mail_outbox_to_idx` for an address). */
export async function listMail(
  db: Database,
  filter: MailFilter,
  page: { limit: number; offset: number },
): Promise<{ rows: MailOutboxRow[]; total: number }> {
  const conditions: SQL[] = [];
  if (filter.status) conditions.push(eq(mailOutbox.status, filter.status));
  if (filter.template) conditions.push(eq(mailOutbox.template, filter.template));
  if (filter.to) conditions.push(sql`lower(${mailOutbox.to}) = lower(${filter.to})`);
  const where = conditions.length ? and(...conditions) : undefined;
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(mailOutbox)
      .where(where)
      .orderBy(...inOrder(filter.order ?? 'desc', mailOutbox.createdAt, mailOutbox.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(mailOutbox).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

/**
 * Puts a message that was given up back in the queue, due now, for one more attempt (a failure
 * gives it up again: its retry window is over). Only a failed message whose body is still kept.
 */
export async function requeueFailedMail(
  db: Database,
  id: string,
  now: Date,
): Promise<MailOutboxRow | undefined> {
  const [row] = await db
    .update(mailOutbox)
    .set({ status: 'pending', nextAttemptAt: now, leaseUntil: null })
    .where(and(eq(mailOutbox.id, id), eq(mailOutbox.status, 'failed'), isNotNull(mailOutbox.text)))
    .returning();
  return row;
}

/**
 * Stops a message that is still waiting from going out (a notice sent by mistake, a list to the
 * wrong people). Not one an instance is delivering this moment (its lease runs): that attempt ends
 * first, and the message is sent or waits again.
 */
export async function cancelWaitingMail(
  db: Database,
  id: string,
  now: Date,
): Promise<MailOutboxRow | undefined> {
  const [row] = await db
    .update(mailOutbox)
    .set({ status: 'cancelled', leaseUntil: null })
    .where(
      and(
        eq(mailOutbox.id, id),
        eq(mailOutbox.status, 'pending'),
        or(isNull(mailOutbox.leaseUntil), lt(mailOutbox.leaseUntil, now)),
      ),
    )
    .returning();
  return row;
}

export async function findMail(db: Database, id: string): Promise<MailOutboxRow | undefined> {
  const [row] = await db.select().from(mailOutbox).where(eq(mailOutbox.id, id));
  return row;
}
