import { DEFAULT_LANGUAGE, isLanguage } from '@skyway/shared/languages';
import type { Database } from '../../db/client.ts';
import type { Mailer } from '../mail/mailer.ts';
import {
  clearCancelledWarnings,
  markNewlyInactive,
  REVOKE_AFTER_WARNING_DAYS,
  revokeWarnedAccounts,
  tryJobLock,
  unmarkWarned,
  type WarnedAccount,
} from './inactive-accounts-repository.ts';
import { deactivateLapsedSlots } from '../access/slots.ts';
import { recordJobRun } from '../operations/job-runs-repository.ts';

export const INACTIVE_ACCOUNTS_JOB = 'inactive-accounts';

export interface InactiveAccountsResult {
  warned: number;
  revoked: number;
  /** Warnings taken back: the account signed in, or has access again. */
  cleared: number;
  /** Accounts whose warning mail could not be written: left unwarned, so the next run tries again. */
  unmailed: number;
  /** True when another instance held the job's lock, so this run changed nothing. */
  skipped: boolean;
}

export interface InactiveAccountsDeps {
  db: Database;
  mailer: Pick<Mailer, 'sendBatch'>;
  now: Date;
  /** Accounts warned a transaction (and a mail write) at a time; tests make it small. */
  batchSize?: number;
}

/** Enough to keep the run short, few enough that a batch's accounts and mails take little memory. */
const BATCH_SIZE = 1000;

/**
 * The revocation date as a calendar date in UTC. For the site's users (UTC+8) that is never later
 * than their local date of revocation, so "sign in before this date" is always in time; a warning
 * delivered late only moves the revocation later (it counts from the delivery).
 */
function revokeDate(now: Date): string {
  return new Date(now.getTime() + REVOKE_AFTER_WARNING_DAYS * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
}

/** Hands a batch's warnings to the mailer; false when they could not be written. */
async function mailed(deps: InactiveAccountsDeps, accounts: WarnedAccount[]): Promise<boolean> {
  const params = { revoke_date: revokeDate(deps.now) };
  try {
    await deps.mailer.sendBatch(
      accounts.map((account) => ({
        to: account.email,
        template: 'inactive_warning',
        language: isLanguage(account.language) ? account.language : DEFAULT_LANGUAGE,
        params,
        // Revocation waits for this mail to be delivered.
        userId: account.id,
      })),
    );
    return true;
  } catch {
    // Nobody may be revoked without having been told: take the marks back so the next run retries.
    await unmarkWarned(
      deps.db,
      accounts.map((account) => account.id),
      deps.now,
    );
    return false;
  }
}

/**
 * Warns the accounts due a warning a batch at a time: each batch is marked in a transaction of its
 * own, holding the job's lock, then mailed in one write. Stops when none are left, when another
 * instance holds the lock (it carries on), or when a batch's mail could not be written (the next run
 * tries again, rather than this one taking the same accounts over and over).
 */
async function warnInBatches(deps: InactiveAccountsDeps): Promise<{ warned: number; unmailed: number }> {
  const { db, now, batchSize = BATCH_SIZE } = deps;
  let warned = 0;
  for (;;) {
    const batch = await db.transaction(async (tx) =>
      (await tryJobLock(tx)) ? markNewlyInactive(tx, now, batchSize) : [],
    );
    if (batch.length === 0) return { warned, unmailed: 0 };
    // Mail after the commit: PGlite has one connection, which the open transaction would hold.
    if (!(await mailed(deps, batch))) return { warned, unmailed: batch.length };
    warned += batch.length;
    if (batch.length < batchSize) return { warned, unmailed: 0 };
  }
}

/**
 * Warns accounts with no sign-in and no access for three months, revokes them 7 days after the
 * warning was delivered, and cancels warnings that a sign-in (or new access) answered. Several
 * instances may run it at once: a transaction-scoped advisory lock lets only one of them act at a
 * time, and each batch of warnings takes it again.
 */
export async function runInactiveAccounts(deps: InactiveAccountsDeps): Promise<InactiveAccountsResult> {
  const { db, now } = deps;
  const startedMs = performance.now();
  const changes = await db.transaction(async (tx) => {
    if (!(await tryJobLock(tx))) return undefined;
    const cleared = await clearCancelledWarnings(tx, now);
    const revoked = await revokeWarnedAccounts(tx, now);
    // A revoked account's device slots stop with it.
    if (revoked > 0) await deactivateLapsedSlots(tx, now);
    return { cleared, revoked };
  });
  if (!changes) return { warned: 0, revoked: 0, cleared: 0, unmailed: 0, skipped: true };

  const { warned, unmailed } = await warnInBatches(deps);
  const result: InactiveAccountsResult = {
    warned,
    revoked: changes.revoked,
    cleared: changes.cleared,
    unmailed,
    skipped: false,
  };
  const finishedAt = new Date(now.getTime() + (performance.now() - startedMs));
  await recordJobRun(db, { name: INACTIVE_ACCOUNTS_JOB, startedAt: now, finishedAt, result });
  return result;
}
