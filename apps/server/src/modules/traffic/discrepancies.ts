import { count, desc, eq, isNull } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { type TrafficDiscrepancyRow, trafficDiscrepancies } from '../../db/schema/index.ts';

/** Discrepancies of the traffic ledger nobody has looked at yet (`traffic_discrepancies_open_idx`). */
const openDiscrepancy = isNull(trafficDiscrepancies.resolvedAt);

/** The newest `limit` discrepancies nobody has looked at yet (the attention queue). */
export const openDiscrepancies = (db: Database, limit: number): Promise<TrafficDiscrepancyRow[]> =>
  db
    .select()
    .from(trafficDiscrepancies)
    .where(openDiscrepancy)
    .orderBy(desc(trafficDiscrepancies.foundAt))
    .limit(limit);

/** How many discrepancies nobody has looked at yet. */
export async function openDiscrepancyCount(db: Database): Promise<number> {
  const [row] = await db.select({ n: count() }).from(trafficDiscrepancies).where(openDiscrepancy);
  return row?.n ?? 0;
}

export async function lockDiscrepancy(tx: Database, id: string): Promise<TrafficDiscrepancyRow | undefined> {
  const [row] = await tx
    .select()
    .from(trafficDiscrepancies)
    .where(eq(trafficDiscrepancies.id, id))
    .for('update');
  return row;
}

/** A member of staff has looked at it, and says what they found. */
export async function markDiscrepancyResolved(
  tx: Database,
  id: string,
  resolution: { at: Date; by: string; reason: string },
): Promise<TrafficDiscrepancyRow> {
  const [resolved] = await tx
    .update(trafficDiscrepancies)
    .set({ resolvedAt: resolution.at, resolvedBy: resolution.by, resolution: resolution.reason })
    .where(eq(trafficDiscrepancies.id, id))
    .returning();
  if (!resolved) throw new Error('discrepancy not written');
  return resolved;
}
