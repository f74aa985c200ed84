import { and, asc, eq, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import {
  deviceSlots,
  inbounds,
  nodeReports,
  type NodeRow,
  type NodeStatus,
  nodes,
  trafficHourly,
} from '../../db/schema/index.ts';
import { lineBytes, reportWindowSeconds } from './plausibility.ts';
import { recordRefusal } from './refusals.ts';

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

/** A slot's credential, as every inbound of a node takes it. */
export interface SlotCredential {
  id: string;
  credential: string;
  secret: string;
  /** Source addresses refused: another device holds the slot. */
  refused: string[];
  /** When the account's access ends. */
  expires_at: Date | string | null;
}

/**
 * Whether a slot's credential may connect to the node now, in SQL: the rule of the subscription links
 * (`usableSlots` in access/slots.ts, `mayUseNode` in nodes/eligibility.ts), so that a node is handed
 * 100,000 credentials without reading every account into the process. The slot is active and within
 * the connections its account has now (none when revoked or expired; a downgrade's once it is due),
 * and those are at least the node's fewest; a node for some plans only takes the plan of the
 * account's latest paid order (`plan`). Time is compared in whole seconds, as the rule's arithmetic
 * does: an access ending within the current second has ended. Reads `s` (the slot) and `users` (its
 * account); null counts as no.
 */
function admitted(node: NodeRow, now: Date, plan: SQL): SQL {
  // Whole seconds: t is after the current second iff t >= its end, and due within it iff t < its end.
  const secondEnd = new Date((Math.floor(now.getTime() / 1000) + 1) * 1000);
  const connections = sql`case when users.revoked_at is null and users.expire_at >= ${secondEnd} then
      case when users.pending_connections is not null
        and (users.pending_from is null or users.pending_from < ${secondEnd})
      then users.pending_connections else users.connections end
    else 0 end`;
  const plans =
    node.periods === null
      ? sql`true`
      : node.periods.length === 0
        ? sql`false`
        : sql`${plan} in (${sql.join(
            node.periods.map((period) => sql`${period}`),
            sql`, `,
          )})`;
  return sql`(s.active and greatest(s.position, ${node.minConnections}) <= ${connections} and ${plans})`;
}

/**
 * The credentials the node admits now: every active slot the rule lets in. One pass over the slots and
 * the accounts, joined by hash; for a node that takes some plans only, the latest paid plan of every
 * account is read from the paid orders in one pass too (looked up once per slot, 100,000 lookups cost
 * PostgreSQL more, and made the plan costly enough to be JIT-compiled).
 */
export async function admittedCredentials(db: Database, node: NodeRow, now: Date): Promise<SlotCredential[]> {
  const plans =
    node.periods === null
      ? sql``
      : sql`left join (select distinct on (user_id) user_id, period from orders
          where status = 'paid' order by user_id, created_at desc) plans on plans.user_id = users.id`;
  const result = await db.execute(sql`
    select s.id, s.credential, s.secret, s.refused_addresses as refused, users.expire_at as expires_at
    from device_slots s
    join users on users.id = s.user_id
    ${plans}
    where ${admitted(node, now, sql`plans.period`)}`);
  return rowsOf<SlotCredential>(result);
}

/**
 * Each slot's account as the rule reads it (named `users`), looked up by its key: for a few slots
 * among many, or a list of them (the `limit` keeps PostgreSQL from flattening the lateral subquery
 * into a join, which it answers by reading every account), with its latest paid plan
 * (`orders_user_idx`) when the node takes some plans only. Reads `s` (the slot).
 */
function accountOfSlot(node: NodeRow): SQL {
  const plan =
    node.periods === null
      ? sql`null::text`
      : sql`(select paid.period from orders paid where paid.user_id = account.id and paid.status = 'paid'
          order by paid.created_at desc limit 1)`;
  return sql`cross join lateral (
      select account.revoked_at, account.expire_at, account.connections, account.pending_connections,
        account.pending_from, ${plan} as plan
      from users account where account.id = s.user_id limit 1
    ) users`;
}

/**
 * The slots changed since a revision (`device_slots_revision_idx`), each with whether the node admits
 * it now.
 */
export async function changedCredentials(
  db: Database,
  node: NodeRow,
  since: number,
  now: Date,
): Promise<(SlotCredential & { admitted: boolean })[]> {
  const result = await db.execute(sql`
    select s.id, s.credential, s.secret, s.refused_addresses as refused, users.expire_at as expires_at,
      coalesce(${admitted(node, now, sql`users.plan`)}, false) as admitted
    from device_slots s
    ${accountOfSlot(node)}
    where s.revision > ${since}`);
  return rowsOf<SlotCredential & { admitted: boolean }>(result);
}

/**
 * Of these slots, those the node admits at one of these moments (a report's window: its start or its
 * end): what a node may report traffic or sightings for. One statement however many slots (a list as
 * one JSON parameter); ids of no slot are not admitted.
 */
export async function admittedAmong(
  db: Database,
  node: NodeRow,
  ids: readonly string[],
  moments: readonly Date[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const result = await db.execute(sql`
    select s.id
    from jsonb_array_elements_text(${JSON.stringify([...new Set(ids)])}::jsonb) listed
    join device_slots s on s.id = listed.value::uuid
    ${accountOfSlot(node)}
    where ${sql.join(
      moments.map((at) => admitted(node, at, sql`users.plan`)),
      sql` or `,
    )}`);
  return new Set(rowsOf<{ id: string }>(result).map((row) => row.id));
}

/** One report's bytes per slot, already charged at the node's rate. */
export interface ChargedTraffic {
  id: string;
  upload: number;
  download: number;
}

/** What became of a report. */
export interface ReportOutcome {
  /** False when its sequence had been applied before: nothing changed now. */
  applied: boolean;
  /** It claimed more bytes than the node's line could carry in its window: none were taken. */
  implausible: boolean;
}

/**
 * Applies a report once: its row (unique on the node and its sequence) and its bytes in the ledger,
 * in one transaction; a sequence applied before (or being applied by a concurrent delivery, which
 * waits on the row) changes nothing. The node's row is locked to read where its previous report's
 * window ended and move it on: a report claiming more bytes (raw, each way, every slot of it) than
 * the node's line could carry in its window is recorded with no bytes and counted for staff, and so
 * is a report with bytes of slots the node does not admit (dropped before this). Bytes of a slot that
 * no longer exists are dropped, and the report's totals are what the ledger received, for the daily
 * reconciliation.
 */
export async function applyReport(
  db: Database,
  report: {
    node: NodeRow;
    sequence: number;
    from: Date;
    to: Date;
    hour: Date;
    /** The raw bytes the whole report claims, each way. */
    claimed: { upload: number; download: number };
    /** The slots whose bytes were dropped: the node does not admit them. */
    foreignSlots: number;
    traffic: ChargedTraffic[];
  },
  now: Date,
): Promise<ReportOutcome> {
  const { node } = report;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(nodeReports)
      .values({
        nodeId: node.id,
        sequence: report.sequence,
        windowFrom: report.from,
        windowTo: report.to,
        hour: report.hour,
        ratePercent: node.ratePercent,
        credentials: 0,
        upload: 0,
        download: 0,
      })
      .onConflictDoNothing()
      .returning({ id: nodeReports.id });
    if (!row) return { applied: false, implausible: false };
    const [locked] = await tx
      .select({ reportedUntil: nodes.reportedUntil, lineMbps: nodes.lineMbps })
      .from(nodes)
      .where(eq(nodes.id, node.id))
      // Not `for update`: the report's row holds a key-share lock on the node (its foreign key), and
      // two reports would each wait for the other's.
      .for('no key update');
    if (!locked) throw new Error('reporting node not found');
    await tx
      .update(nodes)
      .set({ reportedUntil: sql`greatest(${nodes.reportedUntil}, ${report.to})` })
      .where(eq(nodes.id, node.id));
    const seconds = reportWindowSeconds(report.from, report.to, locked.reportedUntil);
    const allowed = lineBytes(locked.lineMbps, seconds);
    if (report.claimed.upload > allowed || report.claimed.download > allowed) {
      await recordRefusal(
        tx,
        node.id,
        'implausible_traffic',
        { ...report.claimed, allowed, window_seconds: Math.round(seconds) },
        now,
      );
      return { applied: true, implausible: true };
    }
    if (report.foreignSlots > 0) {
      await recordRefusal(tx, node.id, 'foreign_traffic', { slots: report.foreignSlots }, now);
    }
    const moved = report.traffic.filter((slot) => slot.upload > 0 || slot.download > 0);
    if (moved.length === 0) return { applied: true, implausible: false };
    // One statement for the whole report: 10,000 credentials are one round trip.
    await tx.execute(sql`
      with moved as (
        select report.id, report.upload, report.download
        from jsonb_to_recordset(${JSON.stringify(moved)}::jsonb) as report(id uuid, upload bigint, download bigint)
        join ${deviceSlots} on ${deviceSlots.id} = report.id
      ), ledger as (
        insert into ${trafficHourly} (slot_id, node_id, hour, upload, download)
        select id, ${node.id}, ${report.hour}, upload, download from moved
        on conflict (slot_id, node_id, hour) do update
          set upload = ${trafficHourly.upload} + excluded.upload,
              download = ${trafficHourly.download} + excluded.download
      )
      update ${nodeReports}
      set credentials = (select count(*) from moved),
          upload = (select coalesce(sum(upload), 0) from moved),
          download = (select coalesce(sum(download), 0) from moved)
      where ${nodeReports.id} = ${row.id}`);
    return { applied: true, implausible: false };
  });
}
