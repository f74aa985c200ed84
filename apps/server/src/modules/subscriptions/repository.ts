import { and, asc, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { deviceSlots, inbounds, nodes, orders, subscriptionFetches, users } from '../../db/schema/index.ts';
import type { Endpoint } from './formats.ts';

/** The slot of a token's hash, with what its account's access is now, in one round trip. */
export async function slotByTokenHash(db: Database, tokenHash: string) {
  const [row] = await db
    .select({
      slot: {
        id: deviceSlots.id,
        position: deviceSlots.position,
        credential: deviceSlots.credential,
        secret: deviceSlots.secret,
      },
      user: {
        id: users.id,
        language: users.language,
        expireAt: users.expireAt,
        connections: users.connections,
        pendingConnections: users.pendingConnections,
        pendingFrom: users.pendingFrom,
        revokedAt: users.revokedAt,
      },
      // The plan of the account's latest paid order: which nodes it may use.
      period: sql<string | null>`(select ${orders.period} from ${orders}
        where ${orders.userId} = ${users.id} and ${orders.status} = 'paid'
        order by ${orders.createdAt} desc limit 1)`,
    })
    .from(deviceSlots)
    .innerJoin(users, eq(users.id, deviceSlots.userId))
    .where(eq(deviceSlots.tokenHash, tokenHash));
  return row;
}

export type SlotAccess = NonNullable<Awaited<ReturnType<typeof slotByTokenHash>>>;

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

/** Logs a fetch and marks the slot's last fetch. */
export async function recordFetch(
  db: Database,
  fetch: { slotId: string; at: Date; ip: string; userAgent: string | undefined; format: string },
): Promise<void> {
  await Promise.all([
    db.insert(subscriptionFetches).values({
      slotId: fetch.slotId,
      at: fetch.at,
      ip: fetch.ip,
      userAgent: fetch.userAgent?.slice(0, 300) ?? null,
      format: fetch.format,
    }),
    db.update(deviceSlots).set({ lastFetchAt: fetch.at }).where(eq(deviceSlots.id, fetch.slotId)),
  ]);
}
