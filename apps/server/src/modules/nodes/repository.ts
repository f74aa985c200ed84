import { and, asc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import {
  deviceSlots,
  type InboundRow,
  inbounds,
  type NodeRow,
  type NodeStatus,
  nodes,
} from '../../db/schema/index.ts';
import { nextRevision, waitForRevisions } from '../access/revisions.ts';
import type { Endpoint } from './endpoints.ts';

/*
 * The only queries on the `nodes` and `inbounds` tables: every other module asks these functions
 * (the architecture test keeps it so).
 */

export type NodeWithInbounds = NodeRow & { inbounds: InboundRow[] };
type NewNodeRow = typeof nodes.$inferInsert;
type NewInboundRow = typeof inbounds.$inferInsert;

/** Every node, in the operator's order, each with its inbounds in theirs. */
export async function listNodes(db: Database): Promise<NodeWithInbounds[]> {
  const rows = await db.select().from(nodes).orderBy(asc(nodes.sortOrder), asc(nodes.name));
  return withInbounds(db, rows);
}

export async function findNode(db: Database, id: string): Promise<NodeWithInbounds | undefined> {
  const [row] = await db.select().from(nodes).where(eq(nodes.id, id));
  return row ? (await withInbounds(db, [row]))[0] : undefined;
}

async function withInbounds(db: Database, rows: NodeRow[]): Promise<NodeWithInbounds[]> {
  if (rows.length === 0) return [];
  const all = await db
    .select()
    .from(inbounds)
    .where(
      inArray(
        inbounds.nodeId,
        rows.map((row) => row.id),
      ),
    )
    .orderBy(asc(inbounds.sortOrder), asc(inbounds.port));
  return rows.map((row) => ({ ...row, inbounds: all.filter((inbound) => inbound.nodeId === row.id) }));
}

/** The names of these nodes, by id. */
export async function nodeNames(db: Database, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: nodes.id, name: nodes.name })
    .from(nodes)
    .where(inArray(nodes.id, [...new Set(ids)]));
  return new Map(rows.map((row) => [row.id, row.name]));
}

export async function lockNode(db: Database, id: string): Promise<NodeRow | undefined> {
  const [row] = await db.select().from(nodes).where(eq(nodes.id, id)).for('update');
  return row;
}

export async function lockInbound(db: Database, id: string): Promise<InboundRow | undefined> {
  const [row] = await db.select().from(inbounds).where(eq(inbounds.id, id)).for('update');
  return row;
}

export async function insertNode(db: Database, values: NewNodeRow): Promise<NodeRow> {
  const [row] = await db.insert(nodes).values(values).returning();
  if (!row) throw new Error('node not written');
  return row;
}

export async function updateNode(db: Database, id: string, values: Partial<NewNodeRow>): Promise<void> {
  await db.update(nodes).set(values).where(eq(nodes.id, id));
}

export async function deleteNode(db: Database, id: string): Promise<void> {
  await db.delete(nodes).where(eq(nodes.id, id));
}

/** A node's inbounds changed: the node's own row says when. */
const touchNode = (db: Database, id: string) => updateNode(db, id, { updatedAt: new Date() });

export async function insertInbound(db: Database, values: NewInboundRow): Promise<InboundRow> {
  const [row] = await db.insert(inbounds).values(values).returning();
  if (!row) throw new Error('inbound not written');
  await touchNode(db, values.nodeId);
  return row;
}

export async function updateInbound(
  db: Database,
  id: string,
  values: Omit<NewInboundRow, 'nodeId'>,
): Promise<InboundRow | undefined> {
  const [row] = await db.update(inbounds).set(values).where(eq(inbounds.id, id)).returning();
  if (row) await touchNode(db, row.nodeId);
  return row;
}

export async function deleteInbound(db: Database, inbound: InboundRow): Promise<void> {
  await db.delete(inbounds).where(eq(inbounds.id, inbound.id));
  await touchNode(db, inbound.nodeId);
}

/**
 * Every node takes a new revision: who may use a node may have changed, so every node's agent pulls
 * its whole credential list again. The caller holds the revisions (`holdRevisions`).
 */
export async function reviseEveryNode(db: Database): Promise<void> {
  await db.update(nodes).set({ revision: nextRevision });
}

export const nodeByTokenHash = async (db: Database, tokenHash: string): Promise<NodeRow | undefined> =>
  (await db.select().from(nodes).where(eq(nodes.tokenHash, tokenHash)))[0];

/** The node's agent was heard from; with a status, what it said. */
export async function markSeen(db: Database, nodeId: string, now: Date, status?: NodeStatus): Promise<void> {
  await db
    .update(nodes)
    .set({ lastSeenAt: now, ...(status ? { status } : {}) })
    .where(eq(nodes.id, nodeId));
}

/**
 * Locks the node's report window and moves its end to `to` (if later), in the caller's transaction:
 * where the previous report's window ended, and the node's line speed. Not `for update`: a report's
 * row holds a key-share lock on its node (its foreign key), and two reports would each wait for the
 * other's.
 */
export async function advanceReportWindow(
  tx: Database,
  nodeId: string,
  to: Date,
): Promise<{ reportedUntil: Date | null; lineMbps: number }> {
  const [locked] = await tx
    .select({ reportedUntil: nodes.reportedUntil, lineMbps: nodes.lineMbps })
    .from(nodes)
    .where(eq(nodes.id, nodeId))
    .for('no key update');
  if (!locked) throw new Error('reporting node not found');
  await tx
    .update(nodes)
    .set({ reportedUntil: sql`greatest(${nodes.reportedUntil}, ${to})` })
    .where(eq(nodes.id, nodeId));
  return locked;
}

/** The node's enabled inbounds, in the operator's order. */
export const enabledInbounds = (db: Database, nodeId: string) =>
  db
    .select()
    .from(inbounds)
    .where(and(eq(inbounds.nodeId, nodeId), eq(inbounds.enabled, true)))
    .orderBy(asc(inbounds.sortOrder), asc(inbounds.port));

/** Every enabled inbound of every enabled node, with what may use it, in the operator's order. */
export async function enabledEndpoints(
  db: Database,
): Promise<(Endpoint & { periods: string[] | null; minConnections: number })[]> {
  const rows = await db
    .select({ node: nodes, inbound: inbounds })
    .from(inbounds)
    .innerJoin(nodes, eq(nodes.id, inbounds.nodeId))
    .where(and(eq(nodes.enabled, true), eq(inbounds.enabled, true)))
    .orderBy(asc(nodes.sortOrder), asc(nodes.name), asc(inbounds.sortOrder), asc(inbounds.port));
  const perNode = new Map<string, number>();
  for (const { node } of rows) perNode.set(node.id, (perNode.get(node.id) ?? 0) + 1);
  return rows.map(({ node, inbound }) => ({
    // A node with several inbounds names each by its protocol, so that every name is unique.
    name:
      (perNode.get(node.id) ?? 0) > 1
        ? `${node.name} ${inbound.protocol.toUpperCase()} ${inbound.port}`
        : node.name,
    host: node.host,
    protocol: inbound.protocol as Endpoint['protocol'],
    port: inbound.port,
    transport: inbound.transport as Endpoint['transport'],
    path: inbound.path,
    security: inbound.security as Endpoint['security'],
    serverName: inbound.serverName,
    flow: inbound.flow,
    realityPublicKey: inbound.realityPublicKey,
    realityShortId: inbound.realityShortId,
    method: inbound.method,
    serverKey: inbound.serverKey,
    periods: node.periods ?? null,
    minConnections: node.minConnections,
  }));
}

/**
 * The highest revision committed so far, of the slots and of the nodes (a change with a lower one may
 * still be on its way: the change stream only uses it to tell that something changed).
 */
export async function highestRevision(db: Database): Promise<number> {
  const [row] = await db
    .select({
      revision: sql<
        string | number | null
      >`greatest(max(${deviceSlots.revision}), (select max(${nodes.revision}) from ${nodes}))`,
    })
    .from(deviceSlots);
  return Number(row?.revision ?? 0);
}

/** The highest revision whose change, and every change before it, has committed. */
export async function settledRevision(db: Database): Promise<number> {
  return db.transaction(async (tx) => {
    await waitForRevisions(tx);
    return highestRevision(tx);
  });
}

/** Enabled nodes whose agent called at least once but not since `heardBefore` (staff alerts). */
export async function silentNodes(db: Database, heardBefore: Date): Promise<{ id: string; name: string }[]> {
  return db
    .select({ id: nodes.id, name: nodes.name })
    .from(nodes)
    .where(and(eq(nodes.enabled, true), lt(nodes.lastSeenAt, heardBefore)));
}
