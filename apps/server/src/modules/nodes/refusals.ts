import { asc, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { type NodeRefusalKind, type NodeRefusalRow, nodeRefusals } from '../../db/schema/index.ts';

/**
 * Counts something a node sent that was refused, for staff: one row per node and kind (however many
 * slots or reports), with when it last came and what it said (`last`: no slot ids, no addresses).
 */
export async function recordRefusal(
  db: Database,
  nodeId: string,
  kind: NodeRefusalKind,
  last: Record<string, number>,
  now: Date,
): Promise<void> {
  await db
    .insert(nodeRefusals)
    .values({ nodeId, kind, times: 1, firstAt: now, lastAt: now, last })
    .onConflictDoUpdate({
      target: [nodeRefusals.nodeId, nodeRefusals.kind],
      set: {
        times: sql`${nodeRefusals.times} + 1`,
        lastAt: sql`greatest(${nodeRefusals.lastAt}, excluded.last_at)`,
        last: sql`excluded.last`,
      },
    });
}

/** Every node's refusals, by node (the back office's Nodes screen). */
export async function refusalsByNode(db: Database): Promise<Map<string, NodeRefusalRow[]>> {
  const rows = await db.select().from(nodeRefusals).orderBy(asc(nodeRefusals.kind));
  const byNode = new Map<string, NodeRefusalRow[]>();
  for (const row of rows) byNode.set(row.nodeId, [...(byNode.get(row.nodeId) ?? []), row]);
  return byNode;
}
