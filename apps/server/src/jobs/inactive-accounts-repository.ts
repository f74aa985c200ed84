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
import type { Database } from '../db/client.ts';
import { DELIVERED_STATUSES, mailOutbox, users } from '../db/schema/index.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** "Three months" at their longest (31 + 31 + 30 days), so no account is warned early. */
export const INACTIVE_AFTER_DAYS = 92;
export const REVOKE_AFTER_WARNING_DAYS = 7;

/** Only one instance runs the job at a time; distinct from the migration lock (7_243_019). */
export const INACTIVE_ACCOUNTS_LOCK_ID = 7_243_101;

const daysBefore = (now: Date, days: number) => new Date(now.getTime() - days * DAY_MS);

// An explicit cast, because a bare parameter inside greatest() leaves its type to the driver.
const timestamp = (date: Date) => sql`${date.toISOString()}::timestamptz`;

/** No sign-in for three months (an account never signed in counts from its creation), no access, not revoked. */
function qualifies(now: Date): SQL {
  const cutoff = daysBefore(now, INACTIVE_AFTER_DAYS);
  return and(
    isNull(users.revokedAt),
    sql`greatest(${users.lastLoginAt}, ${users.createdAt}) < ${timestamp(cutoff)}`,
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

/** The WHERE re-checks `inactive_warned_at is null` under the row lock, so an account is warned once. */
export async function markNewlyInactive(tx: Database, now: Date): Promise<WarnedAccount[]> {
  return tx
    .update(users)
    .set({ inactiveWarnedAt: now })
    .where(and(qualifies(now), isNull(users.inactiveWarnedAt)))
    .returning({ id: users.id, email: users.email, language: users.language });
}

/** Takes a warning back when its mail could not be written, so the next run warns again. */
export async function unmarkWarned(db: Database, id: string, warnedAt: Date): Promise<void> {
  await db
    .update(users)
    .set({ inactiveWarnedAt: null })
    .where(and(eq(users.id, id), eq(users.inactiveWarnedAt, warnedAt)));
}
