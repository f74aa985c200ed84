import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { appStoreSubscriptions, appStoreTransactions } from '../../db/schema/index.ts';

/**
 * The end of an account's current app-store period, or null: for each of its subscriptions the
 * expiry of the latest transaction (by purchase date, so an upgrade's new period counts) that was
 * not refunded or revoked, and the latest of those. A refund of the current period shows the
 * previous one again, or none. Not `expire_user`: trial, invitation and card time may reach beyond
 * the store's renewal date.
 */
export async function appStorePeriodEnd(db: Database, userId: string): Promise<Date | null> {
  const current = await db
    .selectDistinctOn([appStoreTransactions.originalTransactionId], {
      expiresAt: appStoreTransactions.expiresAt,
    })
    .from(appStoreSubscriptions)
    .innerJoin(
      appStoreTransactions,
      eq(appStoreTransactions.originalTransactionId, appStoreSubscriptions.originalTransactionId),
    )
    .where(and(eq(appStoreSubscriptions.userId, userId), isNull(appStoreTransactions.revokedAt)))
    .orderBy(
      appStoreTransactions.originalTransactionId,
      sql`${appStoreTransactions.purchasedAt} desc nulls last`,
      sql`${appStoreTransactions.expiresAt} desc nulls last`,
    );
  const ends = current.flatMap((row) => (row.expiresAt ? [row.expiresAt.getTime()] : []));
  return ends.length > 0 ? new Date(Math.max(...ends)) : null;
}
