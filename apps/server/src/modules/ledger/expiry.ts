import { eq } from 'drizzle-orm';
import { fromUnixSeconds, toUnixSeconds } from '@skyway/shared/dates';
import { type Entitlement, settleEntitlement } from '@skyway/shared/plans';
import type { SubscribeType } from '@skyway/shared/user';
import type { Database } from '../../db/client.ts';
import { expiryLedger, type UserRow, users } from '../../db/schema/index.ts';

/** `app_store`: an App Store notification gave or changed time; `app_store_refund`: Apple took it back. */
export type ExpiryReason = 'trial' | 'invite_reward' | 'purchase' | 'app_store' | 'app_store_refund';

/** The account's access as plan arithmetic sees it, a pending downgrade whose time has come applied. */
export function entitlementOf(user: UserRow, now: Date): Entitlement {
  return settleEntitlement(
    {
      expireAt: toUnixSeconds(user.expireAt),
      connections: user.connections,
      pendingConnections: user.pendingConnections,
      pendingFrom: toUnixSeconds(user.pendingFrom),
    },
    toUnixSeconds(now),
  );
}

export interface EntitlementChange {
  reason: ExpiryReason;
  /** What caused it, when it has a record of its own (an order id). */
  ref?: string;
  after: Entitlement;
  now: Date;
  subscribeType?: SubscribeType;
  /** Whether a store subscription renews by itself (App Store renewal status). */
  autoRenew?: boolean;
}

/**
 * Writes an account's new access with a ledger row saying why and by how much. Call inside a
 * transaction that holds the user's row lock (lockUser), so two changes never start from the same state.
 */
export async function writeEntitlement(
  db: Database,
  user: UserRow,
  change: EntitlementChange,
): Promise<Date> {
  const { after, now } = change;
  const expireAt = fromUnixSeconds(after.expireAt) ?? now;
  await db
    .update(users)
    .set({
      expireAt,
      connections: after.connections,
      pendingConnections: after.pendingConnections,
      pendingFrom: fromUnixSeconds(after.pendingFrom),
      ...(change.subscribeType ? { subscribeType: change.subscribeType } : {}),
      ...(change.autoRenew === undefined ? {} : { autoRenew: change.autoRenew }),
    })
    .where(eq(users.id, user.id));
  await db.insert(expiryLedger).values({
    userId: user.id,
    reason: change.reason,
    ref: change.ref,
    seconds: after.expireAt - Math.max(toUnixSeconds(now), toUnixSeconds(user.expireAt)),
    connections: after.connections,
    fromExpireAt: user.expireAt,
    toExpireAt: expireAt,
    createdAt: now,
  });
  return expireAt;
}

/** Adds time to an account from max(now, expiry) at its current size (the trial, invitation rewards). */
export async function extendExpiry(
  db: Database,
  user: UserRow,
  change: { reason: ExpiryReason; seconds: number; now: Date },
): Promise<Date> {
  const current = entitlementOf(user, change.now);
  const from = Math.max(toUnixSeconds(change.now), current.expireAt);
  return writeEntitlement(db, user, {
    reason: change.reason,
    after: { ...current, expireAt: from + change.seconds },
    now: change.now,
  });
}

/** The user's row, locked until the transaction ends. */
export async function lockUser(db: Database, userId: string): Promise<UserRow> {
  const [row] = await db.select().from(users).where(eq(users.id, userId)).for('update');
  if (!row) throw new Error(`no user ${userId}`);
  return row;
}
