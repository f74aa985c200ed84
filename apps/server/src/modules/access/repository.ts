import { and, eq, inArray, isNotNull, lte, sql } from 'drizzle-orm';
import { fromUnixSeconds, toUnixSeconds } from '@skyway/shared/dates';
import type { Entitlement } from '@skyway/shared/plans';
import type { SubscribeType } from '@skyway/shared/user';
import type { Database } from '../../db/client.ts';
import { appStoreTransactions, expiryLedger, orders, type UserRow, users } from '../../db/schema/index.ts';
import { type AccessReason, entitlementOf, sameEntitlement } from './rules.ts';
import { reconcileSlots } from './slots.ts';

/**
 * The only writer of the access columns of `users` (expiry, connections, pending downgrade,
 * auto-renew, subscription type) and of `expiry_ledger`. A test keeps every other file away from them.
 */

/**
 * The row of the user who placed an order, found and locked in one statement (an order's owner never
 * changes), or undefined when there is no such order. Only the entry point (access.ts) calls it.
 */
export async function lockOrderOwnerRow(db: Database, orderId: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(inArray(users.id, db.select({ userId: orders.userId }).from(orders).where(eq(orders.id, orderId))))
    .for('update', { of: users });
  return row;
}

/** The user's row, locked until the transaction ends. Only the entry point (access.ts) calls it. */
export async function lockUserRow(db: Database, userId: string): Promise<UserRow> {
  const [row] = await db.select().from(users).where(eq(users.id, userId)).for('update');
  if (!row) throw new Error(`no user ${userId}`);
  return row;
}

export interface AccessChange {
  reason: AccessReason;
  /** What caused it, when it has a record of its own (an order id, an App Store transaction id). */
  ref?: string;
  after: Entitlement;
  subscribeType?: SubscribeType;
  /** Whether a store subscription renews by itself (App Store renewal status). */
  autoRenew?: boolean;
  /** A ledger row even when nothing changes: a decision worth its line (a refund that kept the time). */
  recordUnchanged?: boolean;
}

/**
 * Writes an account's new access, with a ledger row saying why and by how much whenever its time or
 * connections change (a due downgrade written down on the way is not a change: it was in force). A change of the renewal status alone has no row: the App Store notification
 * that made it is in payment_events. Runs in the transaction that holds the user's row lock.
 */
export async function writeAccess(
  db: Database,
  user: UserRow,
  change: AccessChange,
  now: Date,
): Promise<Date | null> {
  const { after } = change;
  const expireAt = fromUnixSeconds(after.expireAt);
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
  await reconcileSlots(
    db,
    {
      ...user,
      expireAt,
      connections: after.connections,
      pendingConnections: after.pendingConnections,
      pendingFrom: fromUnixSeconds(after.pendingFrom),
    },
    now,
  );
  if (change.recordUnchanged || !sameEntitlement(after, entitlementOf(user, now))) {
    await db.insert(expiryLedger).values({
      userId: user.id,
      reason: change.reason,
      ref: change.ref,
      seconds: after.expireAt - Math.max(toUnixSeconds(now), toUnixSeconds(user.expireAt)),
      connections: after.connections,
      fromExpireAt: user.expireAt,
      toExpireAt: expireAt ?? now,
      createdAt: now,
    });
  }
  return expireAt;
}

/**
 * Accounts whose bought downgrade is due take its connections, each with a ledger row. Safe on
 * several instances: a row another instance has just settled no longer matches, so each downgrade
 * is written and recorded once. The calls already read a due downgrade as applied; this writes it.
 */
export async function applyDueDowngrades(db: Database, now: Date): Promise<number> {
  return db.transaction(async (tx) => {
    const settled = await tx
      .update(users)
      .set({ connections: sql`${users.pendingConnections}`, pendingConnections: null, pendingFrom: null })
      .where(and(isNotNull(users.pendingConnections), lte(users.pendingFrom, now)))
      .returning({ id: users.id, expireAt: users.expireAt, connections: users.connections });
    if (settled.length > 0) {
      await tx.insert(expiryLedger).values(
        settled.map((row) => ({
          userId: row.id,
          reason: 'downgrade' satisfies AccessReason,
          seconds: 0,
          connections: row.connections,
          fromExpireAt: row.expireAt,
          toExpireAt: row.expireAt ?? now,
          createdAt: now,
        })),
      );
    }
    return settled.length;
  });
}

/** Two ends `/web/user/info` shows beside the expiry; see `accountEndsColumns`. */
export interface AccountEnds {
  appStoreExpire: Date | null;
  trialEnd: Date | null;
}

/**
 * The account's two ends as columns of any select over `users`, so that the signed-in call's one
 * query (the session lookup) brings them along instead of a round trip of their own:
 * - `appStoreExpire`, the end of the account's current App Store period: for each of its
 *   subscriptions the expiry of the latest transaction (by purchase date, so an upgrade's new period
 *   counts) that was not refunded or revoked, and the latest of those; a refund of the current
 *   period shows the previous one again, or none. Not `expire_user`: trial, invitation and card time
 *   may reach beyond the store's renewal date.
 * - `trialEnd`, when the access the free trial granted ends: the expiry its ledger row set (the
 *   trial adds to time the account already had); null when it was never claimed.
 *
 * Raw SQL with aliases: Drizzle names a column without its table inside some selects.
 */
export const accountEndsColumns = {
  appStoreExpire: sql<Date | null>`(
    select max(latest.expires_at) from (
      select distinct on (t.original_transaction_id) t.expires_at
      from app_store_subscriptions s
      inner join app_store_transactions t on t.original_transaction_id = s.original_transaction_id
      where s.user_id = users.id and t.revoked_at is null
      order by t.original_transaction_id, t.purchased_at desc nulls last, t.expires_at desc nulls last
    ) latest
  )`.mapWith(appStoreTransactions.expiresAt),
  trialEnd: sql<Date | null>`(
    select l.to_expire_at from expiry_ledger l
    where l.user_id = users.id and l.reason = 'trial'
    order by l.created_at limit 1
  )`.mapWith(expiryLedger.toExpireAt),
};
