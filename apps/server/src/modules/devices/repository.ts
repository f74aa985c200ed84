import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { deviceSlots, type DeviceSlotRow } from '../../db/schema/index.ts';
import { holdRevisions, nextRevision } from '../access/revisions.ts';

export const listSlots = (db: Database, userId: string) =>
  db.select().from(deviceSlots).where(eq(deviceSlots.userId, userId)).orderBy(asc(deviceSlots.position));

/** Writes the hash of a slot's current token where the access module made the slot without one. */
export async function storeTokenHash(db: Database, slotId: string, tokenHash: string): Promise<void> {
  await db
    .update(deviceSlots)
    .set({ tokenHash })
    .where(and(eq(deviceSlots.id, slotId), isNull(deviceSlots.tokenHash)));
}

export async function renameSlot(
  db: Database,
  userId: string,
  slotId: string,
  change: { name: string; platform?: string },
): Promise<DeviceSlotRow | undefined> {
  const [row] = await db
    .update(deviceSlots)
    .set({ name: change.name, ...(change.platform ? { platform: change.platform } : {}) })
    .where(and(eq(deviceSlots.id, slotId), eq(deviceSlots.userId, userId)))
    .returning();
  return row;
}

/** A slot's new credential and token version, with a new revision: the old ones stop at once. */
export async function replaceCredential(
  db: Database,
  userId: string,
  slotId: string,
  fresh: { credential: string; secret: string; tokenHashOf: (version: number) => string },
): Promise<DeviceSlotRow | undefined> {
  await holdRevisions(db);
  const [slot] = await db
    .select({ tokenVersion: deviceSlots.tokenVersion })
    .from(deviceSlots)
    .where(and(eq(deviceSlots.id, slotId), eq(deviceSlots.userId, userId)))
    .for('update');
  if (!slot) return undefined;
  const tokenVersion = slot.tokenVersion + 1;
  const [row] = await db
    .update(deviceSlots)
    .set({
      credential: fresh.credential,
      secret: fresh.secret,
      tokenVersion,
      tokenHash: fresh.tokenHashOf(tokenVersion),
      revision: nextRevision,
    })
    .where(eq(deviceSlots.id, slotId))
    .returning();
  return row;
}

/** Moves the slots to these positions (a downgrade keeps the lowest), each with a new revision. */
export async function reorderSlots(db: Database, userId: string, order: string[]): Promise<void> {
  await holdRevisions(db);
  // Out of the way first: positions are unique per account.
  await db
    .update(deviceSlots)
    .set({ position: sql`-${deviceSlots.position}` })
    .where(eq(deviceSlots.userId, userId));
  for (const [index, id] of order.entries()) {
    await db
      .update(deviceSlots)
      .set({ position: index + 1, revision: nextRevision })
      .where(and(eq(deviceSlots.id, id), eq(deviceSlots.userId, userId)));
  }
}

/** Binds a device to a slot, unless another device has taken it since. */
export async function bindSlot(
  db: Database,
  slotId: string,
  hwid: string,
): Promise<DeviceSlotRow | undefined> {
  const [row] = await db
    .update(deviceSlots)
    .set({ hwid })
    .where(and(eq(deviceSlots.id, slotId), isNull(deviceSlots.hwid)))
    .returning();
  return row;
}
