import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { deviceSlots, nodeReports, trafficHourly } from '../../db/schema/index.ts';

/*
 * The writes of the traffic ledger: a node's reports (`node_reports`) and the bytes they bring
 * (`traffic_hourly`). The architecture test keeps every query on these tables in modules/traffic.
 */

/** The start of the hour a moment falls in: the ledger's unit. */
export const hourOf = (at: Date) => new Date(Math.floor(at.getTime() / 3_600_000) * 3_600_000);

/** One report's bytes per slot, already charged at the node's rate. */
export interface ChargedTraffic {
  id: string;
  upload: number;
  download: number;
}

/**
 * A report's row, with no bytes yet, unique on the node and its sequence: its id, or none when the
 * sequence was recorded before (a concurrent delivery of it waits on the row, then finds it).
 */
export async function recordReport(
  tx: Database,
  report: { nodeId: string; sequence: number; from: Date; to: Date; hour: Date; ratePercent: number },
): Promise<number | undefined> {
  const [row] = await tx
    .insert(nodeReports)
    .values({
      nodeId: report.nodeId,
      sequence: report.sequence,
      windowFrom: report.from,
      windowTo: report.to,
      hour: report.hour,
      ratePercent: report.ratePercent,
      credentials: 0,
      upload: 0,
      download: 0,
    })
    .onConflictDoNothing()
    .returning({ id: nodeReports.id });
  return row?.id;
}

/**
 * Adds a report's bytes to the ledger, in the node's hour, and keeps on the report's row what the
 * ledger received (its totals, for the daily reconciliation). Bytes of a slot that no longer exists
 * are dropped. One statement for the whole report: 10,000 credentials are one round trip.
 */
export async function creditReport(
  tx: Database,
  report: { id: number; nodeId: string; hour: Date },
  moved: readonly ChargedTraffic[],
): Promise<void> {
  await tx.execute(sql`
    with moved as (
      select report.id, report.upload, report.download
      from jsonb_to_recordset(${JSON.stringify(moved)}::jsonb) as report(id uuid, upload bigint, download bigint)
      join ${deviceSlots} on ${deviceSlots.id} = report.id
    ), ledger as (
      insert into ${trafficHourly} (slot_id, node_id, hour, upload, download)
      select id, ${report.nodeId}, ${report.hour}, upload, download from moved
      on conflict (slot_id, node_id, hour) do update
        set upload = ${trafficHourly.upload} + excluded.upload,
            download = ${trafficHourly.download} + excluded.download
    )
    update ${nodeReports}
    set credentials = (select count(*) from moved),
        upload = (select coalesce(sum(upload), 0) from moved),
        download = (select coalesce(sum(download), 0) from moved)
    where ${nodeReports.id} = ${report.id}`);
}
