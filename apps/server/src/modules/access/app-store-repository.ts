import { eq, sql } from 'drizzle-orm';
import { fromUnixSeconds, toUnixSeconds } from '@skyway/shared/dates';
import type { Database } from '../../db/client.ts';
import {
  type AppStoreSubscriptionRow,
  appStoreSubscriptions,
  appStoreTransactions,
} from '../../db/schema/index.ts';
import type {
  StoreTransaction,
  SubscriptionState,
  TransactionRecord,
  TransactionWrite,
} from './app-store-rules.ts';

/** The account an App Store subscription belongs to, if it is known. */
export async function subscriptionOwner(
  db: Database,
  originalTransactionId: string,
): Promise<string | undefined> {
  const [row] = await db
    .select({ userId: appStoreSubscriptions.userId })
    .from(appStoreSubscriptions)
    .where(eq(appStoreSubscriptions.originalTransactionId, originalTransactionId));
  return row?.userId;
}

const stateOf = (row: AppStoreSubscriptionRow): SubscriptionState => ({
  productId: row.productId,
  connections: row.connections,
  latestTransactionId: row.latestTransactionId,
  expiresAt: toUnixSeconds(row.expiresAt),
  coveredUntil: toUnixSeconds(row.coveredUntil),
  autoRenew: row.autoRenew,
  pendingProductId: row.pendingProductId,
  renewalSignedAt: row.renewalSignedAt?.getTime() ?? 0,
});

/**
 * The subscription of a transaction, created for the account on first sight, locked until the
 * transaction ends (after the account's row: see access.ts).
 */
export async function lockSubscription(
  db: Database,
  userId: string,
  t: StoreTransaction,
  first: { connections: number; autoRenew: boolean; environment: string; now: Date },
): Promise<SubscriptionState> {
  await db
    .insert(appStoreSubscriptions)
    .values({
      originalTransactionId: t.originalId,
      userId,
      productId: t.productId,
      connections: first.connections,
      latestTransactionId: t.id,
      autoRenew: first.autoRenew,
      environment: first.environment,
      createdAt: first.now,
      updatedAt: first.now,
    })
    .onConflictDoNothing();
  const [row] = await db
    .select()
    .from(appStoreSubscriptions)
    .where(eq(appStoreSubscriptions.originalTransactionId, t.originalId))
    .for('update');
  if (!row) throw new Error(`no app-store subscription ${t.originalId}`);
  return stateOf(row);
}

/** A transaction recorded before, locked until the transaction ends. */
export async function lockTransaction(
  db: Database,
  transactionId: string,
): Promise<TransactionRecord | undefined> {
  const [row] = await db
    .select()
    .from(appStoreTransactions)
    .where(eq(appStoreTransactions.transactionId, transactionId))
    .for('update');
  return (
    row && {
      connections: row.connections,
      expiresAt: toUnixSeconds(row.expiresAt),
      grantedSeconds: row.grantedSeconds,
      refundedSeconds: row.refundedSeconds,
      revokedAt: toUnixSeconds(row.revokedAt),
    }
  );
}

/** Saves a notification's effect on the subscription and its transactions. */
export async function saveStoreChange(
  db: Database,
  change: { originalTransactionId: string; userId: string; notificationId: string; now: Date },
  subscription: SubscriptionState,
  writes: TransactionWrite[],
): Promise<void> {
  for (const write of writes) {
    if (write.kind === 'insert') {
      const t = write.transaction;
      await db
        .insert(appStoreTransactions)
        .values({
          transactionId: t.id,
          originalTransactionId: t.originalId,
          userId: change.userId,
          productId: t.productId,
          connections: write.connections,
          purchasedAt: fromUnixSeconds(t.purchasedAt),
          expiresAt: fromUnixSeconds(t.expiresAt),
          notificationId: change.notificationId,
          grantedSeconds: write.grantedSeconds,
          revokedAt: fromUnixSeconds(write.revokedAt),
          createdAt: change.now,
        })
        .onConflictDoNothing();
    } else if (write.kind === 'reduce_granted') {
      await db
        .update(appStoreTransactions)
        .set({ grantedSeconds: sql`greatest(0, ${appStoreTransactions.grantedSeconds} - ${write.seconds})` })
        .where(eq(appStoreTransactions.transactionId, write.transactionId));
    } else {
      const { expiresAt, revokedAt, ...counts } = write.set;
      await db
        .update(appStoreTransactions)
        .set({
          ...counts,
          ...(expiresAt === undefined ? {} : { expiresAt: fromUnixSeconds(expiresAt) }),
          ...(revokedAt === undefined ? {} : { revokedAt: fromUnixSeconds(revokedAt) }),
        })
        .where(eq(appStoreTransactions.transactionId, write.transactionId));
    }
  }
  await db
    .update(appStoreSubscriptions)
    .set({
      productId: subscription.productId,
      connections: subscription.connections,
      latestTransactionId: subscription.latestTransactionId,
      expiresAt: fromUnixSeconds(subscription.expiresAt),
      coveredUntil: fromUnixSeconds(subscription.coveredUntil),
      autoRenew: subscription.autoRenew,
      pendingProductId: subscription.pendingProductId,
      renewalSignedAt: subscription.renewalSignedAt ? new Date(subscription.renewalSignedAt) : null,
      updatedAt: change.now,
    })
    .where(eq(appStoreSubscriptions.originalTransactionId, change.originalTransactionId));
}
