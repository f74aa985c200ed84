import type { AccountChange, AccountChanges } from '../../db/account-changes.ts';
import type { LiveSession } from './repository.ts';

/** How long a lookup is kept at most, changes heard or not. */
const KEEP_MS = 30_000;
/** Lookups kept at most; past it the oldest goes. About 1 kB each. */
const MOST_KEPT = 10_000;
/**
 * How long an account whose change this instance has written is not kept while the commit is
 * awaited: until the commit is heard, or this long when it rolled back (and so is never heard).
 */
const AWAITING_COMMIT_MS = 10_000;

/** Taken before a lookup is read from the database; the read is kept only if it is still current. */
export type Ticket = number | undefined;

/**
 * Signed-in lookups (session, user, ends) kept in memory by token hash, so that the calls a page
 * makes in a row, and a busy console, do not each read the database. Kept only while every change
 * to accounts is heard (`AccountChanges`), and dropped as soon as one to the account is:
 * - a change this instance writes drops the account's lookups before the statement ends, and none
 *   is kept for it until the commit is heard, so the instance's next call sees it;
 * - a change another instance or a tool commits drops them when PostgreSQL announces it,
 *   milliseconds later;
 * - a read that began before a change was heard is not kept;
 * - and nothing is kept while the changes cannot be heard, nor longer than KEEP_MS.
 */
export interface SignedInCache {
  get(tokenHash: string, now: Date): LiveSession | undefined;
  ticket(): Ticket;
  keep(tokenHash: string, found: LiveSession, ticket: Ticket, now: Date): void;
  close(): void;
}

export function createSignedInCache(changes: AccountChanges): SignedInCache {
  const kept = new Map<string, { found: LiveSession; keptAt: number }>();
  const byUser = new Map<string, Set<string>>();
  const awaitingCommit = new Map<string, number>();
  let everyoneAwaitingCommitUntil = 0;
  let generation = 0;

  const drop = (tokenHash: string) => {
    const entry = kept.get(tokenHash);
    if (!entry) return;
    kept.delete(tokenHash);
    const userId = entry.found.user.id;
    const hashes = byUser.get(userId);
    hashes?.delete(tokenHash);
    if (hashes?.size === 0) byUser.delete(userId);
  };

  const dropAll = () => {
    kept.clear();
    byUser.clear();
  };

  const hear = ({ users, stage }: AccountChange) => {
    generation += 1;
    if (stage === 'unheard') {
      dropAll();
      awaitingCommit.clear();
      everyoneAwaitingCommitUntil = 0;
      return;
    }
    const until = stage === 'written' ? Date.now() + AWAITING_COMMIT_MS : 0;
    if (users === 'all') {
      dropAll();
      everyoneAwaitingCommitUntil = until;
      return;
    }
    for (const userId of users) {
      for (const tokenHash of byUser.get(userId) ?? []) drop(tokenHash);
      if (until) awaitingCommit.set(userId, until);
      else awaitingCommit.delete(userId);
    }
  };
  const unsubscribe = changes.subscribe(hear);

  const mayKeep = (userId: string) => {
    const now = Date.now();
    if (everyoneAwaitingCommitUntil > now) return false;
    const until = awaitingCommit.get(userId);
    if (until === undefined) return true;
    if (until > now) return false;
    awaitingCommit.delete(userId);
    return true;
  };

  return {
    get(tokenHash, now) {
      if (!changes.live()) return undefined;
      const entry = kept.get(tokenHash);
      if (!entry) return undefined;
      if (now.getTime() - entry.keptAt >= KEEP_MS || entry.found.session.expiresAt <= now) {
        drop(tokenHash);
        return undefined;
      }
      return entry.found;
    },
    ticket: () => (changes.live() ? generation : undefined),
    keep(tokenHash, found, ticket, now) {
      if (ticket !== generation || !changes.live() || !mayKeep(found.user.id)) return;
      if (kept.size >= MOST_KEPT) {
        const oldest = kept.keys().next();
        if (!oldest.done) drop(oldest.value);
      }
      drop(tokenHash);
      // Shared by the calls that find it: none may change it.
      for (const part of [found.session, found.user, found.ends, found]) Object.freeze(part);
      kept.set(tokenHash, { found, keptAt: now.getTime() });
      let hashes = byUser.get(found.user.id);
      if (!hashes) byUser.set(found.user.id, (hashes = new Set()));
      hashes.add(tokenHash);
    },
    close() {
      unsubscribe();
      dropAll();
    },
  };
}
