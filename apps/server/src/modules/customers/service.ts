import type { Database } from '../../db/client.ts';
import type { UserRow } from '../../db/schema/index.ts';
import { AppError } from '../../http/errors.ts';
import { inAccountTransaction } from '../access/access.ts';
import { reconcileSlots } from '../access/slots.ts';
import { recordAudit, type StaffActor } from '../audit/repository.ts';
import { revokeUserSessions } from '../sessions/repository.ts';
import { findUser, setUserDisabled } from './repository.ts';

const iso = (date: Date | null) => date?.toISOString() ?? null;

async function existingUser(db: Database, id: string): Promise<UserRow> {
  const user = await findUser(db, id);
  if (!user) throw new AppError(404, 'not_found');
  return user;
}

/**
 * Adds time to an account, or takes it back (negative seconds), through the access module: one
 * ledger row (`staff_adjustment`) and one audit row with the reason, in the account's transaction.
 */
export async function adjustUserTime(
  db: Database,
  actor: StaffActor,
  request: { id: string; seconds: number; reason: string; now: Date },
): Promise<Date | null> {
  await existingUser(db, request.id);
  return inAccountTransaction(db, request.id, request.now, async (account) => {
    const expireAt = await account.adjustTime(request.seconds);
    await recordAudit(
      account.tx,
      actor,
      {
        action: 'user.adjust_time',
        targetType: 'user',
        targetId: request.id,
        before: { expire_at: iso(account.user.expireAt) },
        after: { expire_at: iso(expireAt), seconds: request.seconds, reason: request.reason },
      },
      request.now,
    );
    return expireAt;
  });
}

/** Signs an account out everywhere: every session ends at once. */
export async function endUserSessions(
  db: Database,
  actor: StaffActor,
  request: { id: string; now: Date },
): Promise<void> {
  await existingUser(db, request.id);
  await db.transaction(async (tx) => {
    const ended = await revokeUserSessions(tx, request.id, { now: request.now });
    await recordAudit(
      tx,
      actor,
      {
        action: 'user.end_sessions',
        targetType: 'user',
        targetId: request.id,
        before: { open_sessions: ended },
        after: { open_sessions: 0 },
      },
      request.now,
    );
  });
}

/** Disables an account (its sessions end with it) or enables it again; the reason goes in the audit log. */
export async function setUserAccess(
  db: Database,
  actor: StaffActor,
  request: { id: string; disabled: boolean; reason: string; now: Date },
): Promise<UserRow> {
  const before = await existingUser(db, request.id);
  return db.transaction(async (tx) => {
    const changed = await setUserDisabled(tx, request.id, request.disabled ? request.now : null);
    if (!changed) throw new AppError(404, 'not_found');
    if (request.disabled) await revokeUserSessions(tx, request.id, { now: request.now });
    // Its device slots stop with it, and come back with it.
    await reconcileSlots(tx, changed, request.now);
    await recordAudit(
      tx,
      actor,
      {
        action: request.disabled ? 'user.disable' : 'user.enable',
        targetType: 'user',
        targetId: request.id,
        before: { disabled: before.revokedAt !== null },
        after: { disabled: request.disabled, reason: request.reason },
      },
      request.now,
    );
    return changed;
  });
}
