import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { appStoreSubscriptions } from '../../db/schema/index.ts';

/**
 * The end of an account's current app-store period (its latest subscription's expiry), or null.
 * Not `expire_user`: trial, invitation and card time may reach beyond the store's renewal date.
 */
export async function appStorePeriodEnd(db: Database, userId: string): Promise<Date | null> {
  const [row] = await db
    .select({ expiresAt: appStoreSubscriptions.expiresAt })
    .from(appStoreSubscriptions)
    .where(eq(appStoreSubscriptions.userId, userId))
    .orderBy(sql`${appStoreSubscriptions.expiresAt} desc nulls last`)
    .limit(1);
  return row?.expiresAt ?? null;
}
