import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { nodeReports, trafficDiscrepancies, trafficHourly } from '../../db/schema/index.ts';

export const TRAFFIC_RECONCILE_JOB = 'traffic-reconcile';
const HOUR_MS = 3_600_000;
/** Each run looks at the last two days of ended hours: a day's run, and a missed one, are covered. */
const LOOK_BACK_HOURS = 48;

/**
 * The daily check of the traffic ledger: for every node and ended hour of the last two days, the
 * bytes its reports brought (their totals, kept with each report) against the bytes the ledger holds.
 * They are written in one transaction, so they agree unless something changed the ledger since (a
 * deleted account's rows, a hand edit, a fault): each hour that disagrees is recorded once, for the
 * attention queue. Safe on several instances (one statement, unique on the node and hour).
 */
export async function reconcileTraffic(db: Database, now: Date): Promise<{ discrepancies: number }> {
  const to = new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS);
  const from = new Date(to.getTime() - LOOK_BACK_HOURS * HOUR_MS);
  const found = await db.execute(sql`
    with reported as (
      select ${nodeReports.nodeId} as node_id, ${nodeReports.hour} as hour,
        sum(${nodeReports.upload}) as upload, sum(${nodeReports.download}) as download
      from ${nodeReports}
      where ${nodeReports.hour} >= ${from} and ${nodeReports.hour} < ${to}
      group by 1, 2
    ), ledger as (
      select ${trafficHourly.nodeId} as node_id, ${trafficHourly.hour} as hour,
        sum(${trafficHourly.upload}) as upload, sum(${trafficHourly.download}) as download
      from ${trafficHourly}
      where ${trafficHourly.hour} >= ${from} and ${trafficHourly.hour} < ${to}
      group by 1, 2
    )
    insert into ${trafficDiscrepancies}
      (node_id, hour, reported_upload, reported_download, ledger_upload, ledger_download)
    select coalesce(reported.node_id, ledger.node_id), coalesce(reported.hour, ledger.hour),
      coalesce(reported.upload, 0), coalesce(reported.download, 0),
      coalesce(ledger.upload, 0), coalesce(ledger.download, 0)
    from reported full join ledger on ledger.node_id = reported.node_id and ledger.hour = reported.hour
    where coalesce(reported.upload, 0) <> coalesce(ledger.upload, 0)
      or coalesce(reported.download, 0) <> coalesce(ledger.download, 0)
    on conflict (node_id, hour) do nothing
    returning id`);
  return { discrepancies: rowCount(found) };
}

/** The rows a statement returned, from either driver's result. */
const rowCount = (result: unknown) => (result as { rows?: unknown[] }).rows?.length ?? 0;
