import { DEFAULT_LANGUAGE, isLanguage } from '@skyway/shared/languages';
import type { Database } from '../db/client.ts';
import type { Mailer } from '../modules/mail/mailer.ts';
import {
  clearCancelledWarnings,
  markNewlyInactive,
  REVOKE_AFTER_WARNING_DAYS,
  revokeWarnedAccounts,
  tryJobLock,
  unmarkWarned,
  type WarnedAccount,
} from './inactive-accounts-repository.ts';
import { recordJobRun } from './job-runs-repository.ts';

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
  mailer: Pick<Mailer, 'send'>;
  now: Date;
}

/**
 * The revocation date as a calendar date in UTC. For the site's users (UTC+8) that is never later
 * than their local date of revocation, so "sign in before this date" is always in time; a warning
 * delivered late only moves the revocation later (it counts from the delivery).
 */
function revokeDate(now: Date): string {
  return new Date(now.getTime() + REVOKE_AFTER_WARNING_DAYS * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
}

/** Mails each newly warned account; returns how many mails could not be written. */
async function warn(deps: InactiveAccountsDeps, accounts: WarnedAccount[]): Promise<number> {
  let unmailed = 0;
  for (const account of accounts) {
    try {
      await deps.mailer.send({
        to: account.email,
        template: 'inactive_warning',
        language: isLanguage(account.language) ? account.language : DEFAULT_LANGUAGE,
        params: { revoke_date: revokeDate(deps.now) },
        // Revocation waits for this mail to be delivered.
        userId: account.id,
      });
    } catch {
      // Nobody may be revoked without having been told: take the mark back so the next run retries.
      await unmarkWarned(deps.db, account.id, deps.now);
      unmailed += 1;
    }
  }
  return unmailed;
}

/**
 * Warns accounts with no sign-in and no access for three months, revokes them 7 days after the
 * warning was delivered, and cancels warnings that a sign-in (or new access) answered. Several
 * instances may run it at once: one transaction-scoped advisory lock lets only one of them act.
 */
export async function runInactiveAccounts(deps: InactiveAccountsDeps): Promise<InactiveAccountsResult> {
  const { db, now } = deps;
  const startedMs = performance.now();
  const changes = await db.transaction(async (tx) => {
    if (!(await tryJobLock(tx))) return undefined;
    const cleared = await clearCancelledWarnings(tx, now);
    const revoked = await revokeWarnedAccounts(tx, now);
    const toWarn = await markNewlyInactive(tx, now);
    return { cleared, revoked, toWarn };
  });
  if (!changes) return { warned: 0, revoked: 0, cleared: 0, unmailed: 0, skipped: true };

  // Mail after the commit: PGlite has one connection, which the open transaction would hold.
  const unmailed = await warn(deps, changes.toWarn);
  const result: InactiveAccountsResult = {
    warned: changes.toWarn.length - unmailed,
    revoked: changes.revoked,
    cleared: changes.cleared,
    unmailed,
    skipped: false,
  };
  const finishedAt = new Date(now.getTime() + (performance.now() - startedMs));
  await recordJobRun(db, { name: INACTIVE_ACCOUNTS_JOB, startedAt: now, finishedAt, result });
  return result;
}
