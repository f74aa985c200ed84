import { and, gte, inArray, type SQLWrapper, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { trafficHourly } from '../../db/schema/index.ts';

/** What a slot's credential has sent and received, in bytes charged at the nodes' rates. */
export interface SlotUsage {
  upload: number;
  download: number;
}

/**
 * The most any total of bytes is shown as: 2^53 − 1 (8 PiB), the largest integer every reply (JSON
 * numbers read as doubles) carries exactly. Sums are capped at it by the database, so a total past
 * it (no real volume: a month of a 10 Gbit/s line is 3.3 PB) reads as 8 PiB instead of breaking the
 * replies that carry it.
 */
export const MAX_BYTES = Number.MAX_SAFE_INTEGER;

/** A sum of bytes, capped (`MAX_BYTES`). */
const cappedSum = (column: SQLWrapper) => sql<string>`least(sum(${column}), ${sql.raw(String(MAX_BYTES))})`;

/** A slot with no traffic. */
export const NO_USAGE: SlotUsage = Object.freeze({ upload: 0, download: 0 });

/** The period usage is counted in: the calendar month (UTC) a moment falls in. */
export const periodStart = (now: Date) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));

/**
 * Each slot's usage this period, from the traffic ledger (every node, every hour since the month
 * began): for the console, the back office and the `subscription-userinfo` header.
 */
export async function usageThisPeriod(
  db: Database,
  slotIds: readonly string[],
  now: Date,
): Promise<Map<string, SlotUsage>> {
  if (slotIds.length === 0) return new Map();
  const rows = await db
    .select({
      slotId: trafficHourly.slotId,
      upload: cappedSum(trafficHourly.upload),
      download: cappedSum(trafficHourly.download),
    })
    .from(trafficHourly)
    .where(and(inArray(trafficHourly.slotId, [...slotIds]), gte(trafficHourly.hour, periodStart(now))))
    .groupBy(trafficHourly.slotId);
  return new Map(
    rows.map((row) => [row.slotId, { upload: Number(row.upload), download: Number(row.download) }]),
  );
}

/** What moved through each node this period, charged at its rate (the back office's Nodes screen). */
export async function nodeUsageThisPeriod(db: Database, now: Date): Promise<Map<string, SlotUsage>> {
  const rows = await db
    .select({
      nodeId: trafficHourly.nodeId,
      upload: cappedSum(trafficHourly.upload),
      download: cappedSum(trafficHourly.download),
    })
    .from(trafficHourly)
    .where(gte(trafficHourly.hour, periodStart(now)))
    .groupBy(trafficHourly.nodeId);
  return new Map(
    rows.map((row) => [row.nodeId, { upload: Number(row.upload), download: Number(row.download) }]),
  );
}
