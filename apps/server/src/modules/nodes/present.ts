import type { z } from 'zod';
import type { inboundSchema, nodeRefusalSchema, nodeSchema } from '@skyway/shared/schemas/admin/nodes';
import type { InboundRow, NodeRefusalRow } from '../../db/schema/index.ts';
import type { NodeWithInbounds } from './repository.ts';

export function presentInbound(row: InboundRow): z.infer<typeof inboundSchema> {
  return {
    id: row.id,
    protocol: row.protocol as z.infer<typeof inboundSchema>['protocol'],
    port: row.port,
    transport: row.transport as z.infer<typeof inboundSchema>['transport'],
    path: row.path,
    security: row.security as z.infer<typeof inboundSchema>['security'],
    server_name: row.serverName,
    flow: row.flow,
    reality_public_key: row.realityPublicKey,
    reality_short_id: row.realityShortId,
    method: row.method,
    enabled: row.enabled,
    sort_order: row.sortOrder,
  };
}

export function presentNode(row: NodeWithInbounds): z.infer<typeof nodeSchema> {
  return {
    id: row.id,
    number: row.number,
    name: row.name,
    region: row.region,
    host: row.host,
    enabled: row.enabled,
    sort_order: row.sortOrder,
    periods: row.periods ?? null,
    min_connections: row.minConnections,
    rate_percent: row.ratePercent,
    line_mbps: row.lineMbps,
    token_issued: row.tokenHash !== null,
    last_seen_at: row.lastSeenAt?.toISOString() ?? null,
    status: row.status ?? null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    inbounds: row.inbounds.map(presentInbound),
  };
}

export const presentRefusal = (row: NodeRefusalRow): z.infer<typeof nodeRefusalSchema> => ({
  kind: row.kind,
  times: row.times,
  first_at: row.firstAt.toISOString(),
  last_at: row.lastAt.toISOString(),
  last: row.last,
});
