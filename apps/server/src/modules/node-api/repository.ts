import { and, asc, desc, eq, gt, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import {
  deviceSlots,
  inbounds,
  nodeReports,
  type NodeRow,
  type NodeStatus,
  nodes,
  orders,
  trafficHourly,
  users,
} from '../../db/schema/index.ts';

export const nodeByTokenHash = async (db: Database, tokenHash: string): Promise<NodeRow | undefined> =>
  (await db.select().from(nodes).where(eq(nodes.tokenHash, tokenHash)))[0];

/** The node's agent was heard from; with a status, what it said. */
export async function markSeen(db: Database, nodeId: string, now: Date, status?: NodeStatus): Promise<void> {
  await db
    .update(nodes)
    .set({ lastSeenAt: now, ...(status ? { status } : {}) })
    .where(eq(nodes.id, nodeId));
}

/** The node's enabled inbounds, in the operator's order. */
export const enabledInbounds = (db: Database, nodeId: string) =>
  db
    .select()
    .from(inbounds)
    .where(and(eq(inbounds.nodeId, nodeId), eq(inbounds.enabled, true)))
    .orderBy(asc(inbounds.sortOrder), asc(inbounds.port));

const slotColumns = {
  id: deviceSlots.id,
  position: deviceSlots.position,
  active: deviceSlots.active,
  credential: deviceSlots.credential,
  secret: deviceSlots.secret,
};

const accessColumns = {
  expireAt: users.expireAt,
  connections: users.connections,
  pendingConnections: users.pendingConnections,
  pendingFrom: users.pendingFrom,
  revokedAt: users.revokedAt,
};

/** No plan looked up: the node takes every plan, so the rule does not read it. */
const noPlan = sql<string | null>`null::text`;

/**
 * The plan of the account's latest paid order (`orders_user_idx`): which nodes it may use. Its names
 * are written out: in a query on `users` alone Drizzle leaves them unqualified, and `id` would be the
 * order's.
 */
const latestPaidPlan = sql<string | null>`(select paid.period from orders paid
  where paid.user_id = users.id and paid.status = 'paid'
  order by paid.created_at desc limit 1)`;

/**
 * Every active slot with what its account's access is now, and, when `withPlan` (the node takes some
 * plans only), the plan of the account's latest paid order. One pass over each table, joined by hash:
 * the plans are read from the paid orders at once, not looked up once per slot (100,000 lookups cost
 * PostgreSQL more than reading the orders, and made the plan costly enough to be JIT-compiled).
 */
export async function activeSlotsWithAccess(db: Database, withPlan: boolean) {
  const base = db
    .select({ ...slotColumns, user: accessColumns, period: noPlan })
    .from(deviceSlots)
    .innerJoin(users, eq(users.id, deviceSlots.userId))
    .where(eq(deviceSlots.active, true));
  if (!withPlan) return base;
  const plans = db
    .selectDistinctOn([orders.userId], { userId: orders.userId, period: orders.period })
    .from(orders)
    .where(eq(orders.status, 'paid'))
    .orderBy(orders.userId, desc(orders.createdAt))
    .as('plans');
  return db
    .select({ ...slotColumns, user: accessColumns, period: plans.period })
    .from(deviceSlots)
    .innerJoin(users, eq(users.id, deviceSlots.userId))
    .leftJoin(plans, eq(plans.userId, users.id))
    .where(eq(deviceSlots.active, true));
}

/**
 * The slots changed since a revision (`device_slots_revision_idx`), with what their account's access
 * is now and, when `withPlan`, the account's latest paid plan. A change is a few slots among many:
 * each account is looked up by its key (the `limit` keeps PostgreSQL from flattening the lateral
 * subquery into a join, which it would answer by reading every account).
 */
export async function changedSlotsWithAccess(db: Database, since: number, withPlan: boolean) {
  const account = db
    .select({ ...accessColumns, period: (withPlan ? latestPaidPlan : noPlan).as('period') })
    .from(users)
    .where(eq(users.id, deviceSlots.userId))
    .limit(1)
    .as('account');
  return db
    .select({
      ...slotColumns,
      user: {
        expireAt: account.expireAt,
        connections: account.connections,
        pendingConnections: account.pendingConnections,
        pendingFrom: account.pendingFrom,
        revokedAt: account.revokedAt,
      },
      period: account.period,
    })
    .from(deviceSlots)
    .innerJoinLateral(account, sql`true`)
    .where(gt(deviceSlots.revision, since));
}

export type SlotWithAccess = Awaited<ReturnType<typeof activeSlotsWithAccess>>[number];

/** One report's bytes per slot, already charged at the node's rate. */
export interface ChargedTraffic {
  id: string;
  upload: number;
  download: number;
}

/**
 * Applies a report once: its row (unique on the node and its sequence) and its bytes in the ledger,
 * in one transaction; a sequence applied before (or being applied by a concurrent delivery, which
 * waits on the row) changes nothing. Bytes of a slot that no longer exists are dropped, and the
 * report's totals are what the ledger received, for the daily reconciliation. Answers whether it
 * applied now.
 */
export async function applyReport(
  db: Database,
  report: {
    nodeId: string;
    sequence: number;
    from: Date;
    to: Date;
    hour: Date;
    ratePercent: number;
    traffic: ChargedTraffic[];
  },
): Promise<boolean> {
  return db.transaction(async (tx) => {
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
    if (!row) return false;
    const moved = report.traffic.filter((slot) => slot.upload > 0 || slot.download > 0);
    if (moved.length === 0) return true;
    // One statement for the whole report: 10,000 credentials are one round trip.
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
      where ${nodeReports.id} = ${row.id}`);
    return true;
  });
}
