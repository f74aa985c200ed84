import {
  and,
  eq,
  exists,
  gt,
  gte,
  inArray,
  isNotNull,
  isNull,
  lte,
  not,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { DELIVERED_STATUSES, mailOutbox, users } from '../../db/schema/index.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** "Three months" at their longest (31 + 31 + 30 days), so no account is warned early. */
export const INACTIVE_AFTER_DAYS = 92;
export const REVOKE_AFTER_WARNING_DAYS = 7;

/** Only one instance runs the job at a time; distinct from the migration lock (7_243_019). */
export const INACTIVE_ACCOUNTS_LOCK_ID = 7_243_101;

const daysBefore = (now: Date, days: number) => new Date(now.getTime() - days * DAY_MS);

// An explicit cast, because a bare parameter inside greatest() leaves its type to the driver.
const timestamp = (date: Date) => sql`${date.toISOString()}::timestamptz`;

/** The later of the latest sign-in and creation: the start of a spell without sign-in. */
const inactiveSince = sql`greatest(${users.lastLoginAt}, ${users.createdAt})`;

/** No sign-in for three months (an account never signed in counts from its creation), no access, not revoked. */
function qualifies(now: Date): SQL {
  const cutoff = daysBefore(now, INACTIVE_AFTER_DAYS);
  return and(
    isNull(users.revokedAt),
    sql`${inactiveSince} < ${timestamp(cutoff)}`,
    or(isNull(users.expireAt), lte(users.expireAt, now)),
  ) as SQL;
}

const signedInSinceWarning = and(
  isNotNull(users.lastLoginAt),
  gt(users.lastLoginAt, users.inactiveWarnedAt),
) as SQL;

/** Held until the transaction ends; false when another instance is running the job. */
export async function tryJobLock(tx: Database): Promise<boolean> {
  const result = await tx.execute(
    sql`select pg_try_advisory_xact_lock(${INACTIVE_ACCOUNTS_LOCK_ID}) as locked`,
  );
  // Both drivers (pg and PGlite) answer with `rows`; Drizzle's shared type cannot say so.
  const { rows } = result as unknown as { rows: { locked: boolean }[] };
  return rows[0]?.locked === true;
}

/**
 * Cancels the warnings of accounts that signed in since, or that no longer qualify (access bought or
 * renewed without a sign-in, e.g. by the app store): their next lapse starts a new warning period.
 */
export async function clearCancelledWarnings(tx: Database, now: Date): Promise<number> {
  const rows = await tx
    .update(users)
    .set({ inactiveWarnedAt: null })
    .where(
      and(
        isNotNull(users.inactiveWarnedAt),
        isNull(users.revokedAt),
        or(signedInSinceWarning, not(qualifies(now))),
      ),
    )
    .returning({ id: users.id });
  return rows.length;
}

/**
 * This warning period's warning (written at or after the mark) reached the account by `cutoff`. A
 * warning still queued, or given up, never counts: nobody is revoked without having been told.
 */
function warningDeliveredBy(tx: Database, cutoff: Date): SQL {
  return exists(
    tx
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(
        and(
          eq(mailOutbox.userId, users.id),
          eq(mailOutbox.template, 'inactive_warning'),
          gte(mailOutbox.createdAt, users.inactiveWarnedAt),
          inArray(mailOutbox.status, DELIVERED_STATUSES),
          lte(mailOutbox.sentAt, cutoff),
        ),
      ),
  );
}

/** Revokes the accounts still inactive 7 days after their warning was delivered. */
export async function revokeWarnedAccounts(tx: Database, now: Date): Promise<number> {
  const rows = await tx
    .update(users)
    .set({ revokedAt: now })
    .where(
      and(
        // Implied by a delivered warning, and said so that the index of warned accounts serves.
        isNotNull(users.inactiveWarnedAt),
        qualifies(now),
        not(signedInSinceWarning),
        warningDeliveredBy(tx, daysBefore(now, REVOKE_AFTER_WARNING_DAYS)),
      ),
    )
    .returning({ id: users.id });
  return rows.length;
}

export interface WarnedAccount {
  id: string;
  email: string;
  language: string;
}

/**
 * Marks up to `limit` qualifying accounts not yet warned, longest inactive first, and returns them.
 * SKIP LOCKED passes over rows another transaction holds, and `= any(array(…))` runs the subquery
 * once: PostgreSQL may run an `in (…)` subquery more than once, and each run would mark `limit` more.
 */
export async function markNewlyInactive(tx: Database, now: Date, limit: number): Promise<WarnedAccount[]> {
  const batch = tx
    .select({ id: users.id })
    .from(users)
    .where(and(qualifies(now), isNull(users.inactiveWarnedAt)))
    .orderBy(inactiveSince, users.id)
    .limit(limit)
    .for('update', { skipLocked: true });
  return tx
    .update(users)
    .set({ inactiveWarnedAt: now })
    .where(sql`${users.id} = any(array(${batch}))`)
    .returning({ id: users.id, email: users.email, language: users.language });
}

/** Takes warnings back when their mail could not be written, so the next run warns again. */
export async function unmarkWarned(db: Database, ids: string[], warnedAt: Date): Promise<void> {
  await db
    .update(users)
    .set({ inactiveWarnedAt: null })
    .where(and(inArray(users.id, ids), eq(users.inactiveWarnedAt, warnedAt)));
}
