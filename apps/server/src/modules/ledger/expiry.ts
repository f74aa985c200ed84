import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { expiryLedger, type UserRow, users } from '../../db/schema/index.ts';

export type ExpiryReason = 'trial' | 'invite_reward';

/**
 * Adds time to an account from max(now, expiry), with a ledger row saying why. Call inside a
 * transaction that holds the user's row lock (lockUser), so two credits never read the same expiry.
 */
export async function extendExpiry(
  db: Database,
  user: UserRow,
  change: { reason: ExpiryReason; seconds: number; now: Date },
): Promise<Date> {
  const base = Math.max(change.now.getTime(), user.expireAt?.getTime() ?? 0);
  const next = new Date(base + change.seconds * 1000);
  await db.update(users).set({ expireAt: next }).where(eq(users.id, user.id));
  await db.insert(expiryLedger).values({
    userId: user.id,
    reason: change.reason,
    seconds: change.seconds,
    fromExpireAt: user.expireAt,
    toExpireAt: next,
    createdAt: change.now,
  });
  return next;
}

/** The user's row, locked until the transaction ends. */
export async function lockUser(db: Database, userId: string): Promise<UserRow> {
  const [row] = await db.select().from(users).where(eq(users.id, userId)).for('update');
  if (!row) throw new Error(`no user ${userId}`);
  return row;
}
