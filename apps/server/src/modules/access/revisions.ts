import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';

/**
 * Slots and nodes take their revisions from one sequence (`device_slot_revisions`), and a node's
 * agent asks for the changes since the revision it holds. A sequence hands out numbers in the order
 * transactions ask, not in the order they commit: a reader could see revision 12 committed while 11
 * is still on its way, and a node that moved on to 12 would never get 11. So every transaction that
 * takes a revision holds this lock shared first, and the reader takes it exclusively, for an instant,
 * before it reads the highest revision: every change up to that one has then committed.
 */
const REVISIONS_LOCK = 0x5ce7_0016;

/** Taken by a transaction before it gives a slot or a node a new revision (held until it ends). */
export async function holdRevisions(tx: Database): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock_shared(${REVISIONS_LOCK})`);
}

/** The next revision, for an update's `revision` column. */
export const nextRevision = sql`nextval('device_slot_revisions')`;

/**
 * Waits until every transaction that took a revision has ended, in the caller's transaction: the
 * highest revision read after it is settled (every change up to it has committed).
 */
export async function waitForRevisions(tx: Database): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${REVISIONS_LOCK})`);
}
