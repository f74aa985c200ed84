import { NODE_ONLINE_WITHIN_SECONDS, type NodeStatusList } from '@skyway/shared/schemas/node-status';
import { and, asc, desc, eq, exists } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { inbounds, nodes, orders } from '../../db/schema/index.ts';
import { usableSlots } from '../access/slots.ts';
import type { SignedInUser } from '../sessions/repository.ts';
import { mayUseNode } from './admission.ts';

/** The plan of the account's latest paid order: which nodes it may use (as the subscription links read it). */
async function latestPaidPeriod(db: Database, userId: string): Promise<string | null> {
  const [row] = await db
    .select({ period: orders.period })
    .from(orders)
    .where(and(eq(orders.userId, userId), eq(orders.status, 'paid')))
    .orderBy(desc(orders.createdAt))
    .limit(1);
  return row?.period ?? null;
}

/**
 * The console's node status (PRODUCT.md section 11): the enabled nodes with an enabled inbound that
 * the account's access may use now (the rule of the subscription links), each with its region,
 * whether its agent was heard from lately and the load it last reported; none while the account has
 * no access. No address, port or credential: a customer learns those from their own links.
 */
export async function nodeStatusFor(db: Database, user: SignedInUser, now: Date): Promise<NodeStatusList> {
  const connections = usableSlots(user, now);
  if (connections === 0) return { nodes: [] };
  const [period, rows] = await Promise.all([
    latestPaidPeriod(db, user.id),
    db
      .select({
        name: nodes.name,
        region: nodes.region,
        periods: nodes.periods,
        minConnections: nodes.minConnections,
        lastSeenAt: nodes.lastSeenAt,
        status: nodes.status,
      })
      .from(nodes)
      .where(
        and(
          eq(nodes.enabled, true),
          exists(
            db
              .select({ id: inbounds.id })
              .from(inbounds)
              .where(and(eq(inbounds.nodeId, nodes.id), eq(inbounds.enabled, true))),
          ),
        ),
      )
      .orderBy(asc(nodes.sortOrder), asc(nodes.name)),
  ]);
  const heardSince = now.getTime() - NODE_ONLINE_WITHIN_SECONDS * 1000;
  return {
    nodes: rows
      .filter((node) =>
        mayUseNode(
          { periods: node.periods ?? null, minConnections: node.minConnections },
          { period, connections },
        ),
      )
      .map((node) => ({
        name: node.name,
        region: node.region,
        online: node.lastSeenAt !== null && node.lastSeenAt.getTime() >= heardSince,
        load: node.status ? Math.round(node.status.load[0] * 100) / 100 : null,
      })),
  };
}
