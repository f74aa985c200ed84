import { randomBytes, randomUUID } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { deviceSlots, type UserRow, users } from '../../db/schema/index.ts';
import { holdRevisions, nextRevision } from './revisions.ts';
import { entitlementOf, type StoredAccess } from './rules.ts';

/** A fresh credential for the proxies: the VLESS / VMess id, and a 256-bit Trojan / Shadowsocks 2022 key. */
export const newCredential = () => ({ credential: randomUUID(), secret: randomBytes(32).toString('base64') });

/** How many slots an account may use now: its connections while its access lasts, else none. */
export function usableSlots(user: StoredAccess & { revokedAt: Date | null }, now: Date): number {
  if (user.revokedAt) return 0;
  const entitlement = entitlementOf(user, now);
  return entitlement.expireAt > Math.floor(now.getTime() / 1000) ? entitlement.connections : 0;
}

/**
 * Makes an account's slots match its access, in the transaction that holds its row: slots up to its
 * connections exist and are active (an upgrade adds them at once), the rest are inactive (a lapsed,
 * revoked or downgraded account's credentials stop at once). Each slot that changes takes a new
 * revision, which is what the nodes follow.
 */
export async function reconcileSlots(tx: Database, user: UserRow, now: Date): Promise<void> {
  await holdRevisions(tx);
  const usable = usableSlots(user, now);
  // Every slot takes a new revision, changed or not: which nodes a slot may use follows the
  // account's plan and connections, which an access change may have moved. One statement for all of
  // them, whose answer says which positions exist.
  const slots = await tx
    .update(deviceSlots)
    .set({ active: sql`${deviceSlots.position} <= ${usable}`, revision: nextRevision })
    .where(eq(deviceSlots.userId, user.id))
    .returning({ position: deviceSlots.position });
  const missing = Array.from({ length: usable }, (_, i) => i + 1).filter(
    (position) => !slots.some((slot) => slot.position === position),
  );
  if (missing.length > 0) {
    await tx.insert(deviceSlots).values(
      missing.map((position) => ({
        userId: user.id,
        position,
        ...newCredential(),
        tokenHash: null,
        active: true,
        createdAt: now,
      })),
    );
  }
}

/**
 * The slots job's catch-all: every active slot whose account has no access left for it (expired,
 * revoked, or a downgrade that has come due) becomes inactive, with a new revision. One statement,
 * safe on several instances.
 */
export async function deactivateLapsedSlots(db: Database, now: Date): Promise<number> {
  return db.transaction(async (tx) => {
    await holdRevisions(tx);
    const lapsed = await tx
      .update(deviceSlots)
      .set({ active: false, revision: nextRevision })
      .from(users)
      .where(
        and(
          eq(deviceSlots.active, true),
          eq(deviceSlots.userId, users.id),
          sql`(${users.expireAt} is null or ${users.expireAt} <= ${now} or ${users.revokedAt} is not null
            or ${deviceSlots.position} > case when ${users.pendingFrom} <= ${now}
              then ${users.pendingConnections} else ${users.connections} end)`,
        ),
      )
      .returning({ userId: deviceSlots.userId });
    // A downgrade come due also changes which nodes the slots it keeps may use.
    const accounts = [...new Set(lapsed.map((slot) => slot.userId))];
    if (accounts.length > 0) {
      await tx
        .update(deviceSlots)
        .set({ revision: nextRevision })
        .where(and(eq(deviceSlots.active, true), inArray(deviceSlots.userId, accounts)));
    }
    return lapsed.length;
  });
}
