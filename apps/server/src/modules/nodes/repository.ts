import { asc, eq, inArray } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { type InboundRow, inbounds, type NodeRow, nodes } from '../../db/schema/index.ts';

export type NodeWithInbounds = NodeRow & { inbounds: InboundRow[] };

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

export async function lockNode(db: Database, id: string): Promise<NodeRow | undefined> {
  const [row] = await db.select().from(nodes).where(eq(nodes.id, id)).for('update');
  return row;
}

export async function lockInbound(db: Database, id: string): Promise<InboundRow | undefined> {
  const [row] = await db.select().from(inbounds).where(eq(inbounds.id, id)).for('update');
  return row;
}
