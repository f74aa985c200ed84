import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { uuidParams } from '@skyway/shared/schemas/admin/common';
import {
  inboundRequest,
  inboundSchema,
  nodeCreateRequest,
  SS_KEY_BYTES,
  nodePatchRequest,
  nodeListItemSchema,
  type nodeRefusalSchema,
  nodeSchema,
  nodeTokenSchema,
} from '@skyway/shared/schemas/admin/nodes';
import { noFields } from '@skyway/shared/schemas/envelope';
import type { Database } from '../../db/client.ts';
import { type InboundRow, inbounds, type NodeRefusalRow, nodes } from '../../db/schema/index.ts';
import { ok, replies } from '../../plugins/envelope.ts';
import { AppError } from '../../plugins/errors.ts';
import { signedInStaff } from '../../plugins/staff-auth.ts';
import { holdRevisions, nextRevision } from '../access/revisions.ts';
import { type AuditedChange, recordAudit } from '../audit/repository.ts';
import { hashToken } from '../devices/tokens.ts';
import { refusalsByNode } from '../node-api/refusals.ts';
import { NO_USAGE, nodeUsageThisPeriod } from '../traffic/usage.ts';
import { forgetEnabledEndpoints } from '../subscriptions/endpoints-cache.ts';
import { findNode, listNodes, lockInbound, lockNode, type NodeWithInbounds } from './repository.ts';

function presentInbound(row: InboundRow): z.infer<typeof inboundSchema> {
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

function presentNode(row: NodeWithInbounds): z.infer<typeof nodeSchema> {
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

const nodeColumns = (body: Partial<z.infer<typeof nodeCreateRequest>>) => ({
  ...(body.name !== undefined ? { name: body.name } : {}),
  ...(body.region !== undefined ? { region: body.region } : {}),
  ...(body.host !== undefined ? { host: body.host } : {}),
  ...(body.enabled !== undefined ? { enabled: body.enabled } : {}),
  ...(body.sort_order !== undefined ? { sortOrder: body.sort_order } : {}),
  ...(body.periods !== undefined ? { periods: body.periods } : {}),
  ...(body.min_connections !== undefined ? { minConnections: body.min_connections } : {}),
  ...(body.rate_percent !== undefined ? { ratePercent: body.rate_percent } : {}),
  ...(body.line_mbps !== undefined ? { lineMbps: body.line_mbps } : {}),
});

const presentRefusal = (row: NodeRefusalRow): z.infer<typeof nodeRefusalSchema> => ({
  kind: row.kind,
  times: row.times,
  first_at: row.firstAt.toISOString(),
  last_at: row.lastAt.toISOString(),
  last: row.last,
});

/** A Shadowsocks 2022 inbound's server key: kept while its method's key length stays, else a new one. */
function serverKeyFor(body: z.infer<typeof inboundRequest>, before?: InboundRow): string | null {
  if (body.protocol !== 'shadowsocks' || !body.method) return null;
  const bytes = SS_KEY_BYTES[body.method];
  if (before?.serverKey && Buffer.from(before.serverKey, 'base64').length === bytes) return before.serverKey;
  return randomBytes(bytes).toString('base64');
}

const inboundColumns = (body: z.infer<typeof inboundRequest>, before?: InboundRow) => ({
  protocol: body.protocol,
  port: body.port,
  transport: body.transport,
  path: body.path,
  security: body.security,
  serverName: body.server_name,
  flow: body.flow,
  realityPublicKey: body.reality_public_key,
  realityShortId: body.reality_short_id,
  method: body.method,
  serverKey: serverKeyFor(body, before),
  enabled: body.enabled,
  sortOrder: body.sort_order,
});

/**
 * The proxy nodes and their inbounds (PRODUCT.md section 6). Each change is audited, with the
 * node's or the inbound's state before and after; an inbound is changed as a whole, so that its
 * combination of protocol, transport and TLS is checked as one.
 */
export async function nodeRoutes(app: FastifyInstance, options: { db: Database }): Promise<void> {
  const { db } = options;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['nodes'];

  /**
   * A change to the nodes or inbounds, in one transaction; once it has committed, the subscription
   * links serve it from their next fetch (they keep the list in memory for a few seconds), and every
   * node's agent, told by its change stream, pulls its config and its whole credential list again
   * (who may use a node may have changed; such changes are rare, and a full list is cheap).
   */
  const changing = async <T>(work: (tx: Database) => Promise<T>): Promise<T> => {
    try {
      return await db.transaction(async (tx) => {
        await holdRevisions(tx);
        const result = await work(tx);
        await tx.update(nodes).set({ revision: nextRevision });
        return result;
      });
    } finally {
      forgetEnabledEndpoints(db);
    }
  };

  /** A change and its audit row, in one transaction. */
  const audit = (tx: Database, request: Parameters<typeof signedInStaff>[0], change: AuditedChange) =>
    recordAudit(tx, signedInStaff(request).actor, change, new Date());

  routes.get(
    '/nodes',
    { config: { staff: 'nodes.view' }, schema: { tags, response: replies(z.array(nodeListItemSchema)) } },
    async (request) => {
      const [list, usage, refusals] = await Promise.all([
        listNodes(db),
        nodeUsageThisPeriod(db, new Date()),
        refusalsByNode(db),
      ]);
      return ok(
        request,
        list.map((node) => ({
          ...presentNode(node),
          traffic: usage.get(node.id) ?? NO_USAGE,
          refusals: (refusals.get(node.id) ?? []).map(presentRefusal),
        })),
      );
    },
  );

  routes.post(
    '/nodes',
    {
      config: { staff: 'nodes.edit' },
      schema: { tags, body: nodeCreateRequest, response: replies(nodeSchema) },
    },
    async (request) => {
      const created = await changing(async (tx) => {
        const { name, region, host } = request.body;
        const [row] = await tx
          .insert(nodes)
          .values({ ...nodeColumns(request.body), name, region, host })
          .returning();
        if (!row) throw new Error('node not written');
        const after = presentNode({ ...row, inbounds: [] });
        await audit(tx, request, {
          action: 'node.create',
          targetType: 'node',
          targetId: row.id,
          before: null,
          after,
        });
        return row;
      });
      return ok(request, presentNode({ ...created, inbounds: [] }));
    },
  );

  routes.patch(
    '/nodes/:id',
    {
      config: { staff: 'nodes.edit' },
      schema: { tags, params: uuidParams, body: nodePatchRequest, response: replies(nodeSchema) },
    },
    async (request) => {
      const after = await changing(async (tx) => {
        if (!(await lockNode(tx, request.params.id))) throw new AppError(404, 'not_found');
        const before = await findNode(tx, request.params.id);
        await tx
          .update(nodes)
          .set({ ...nodeColumns(request.body), updatedAt: new Date() })
          .where(eq(nodes.id, request.params.id));
        const changed = await findNode(tx, request.params.id);
        if (!before || !changed) throw new AppError(404, 'not_found');
        await audit(tx, request, {
          action: 'node.change',
          targetType: 'node',
          targetId: changed.id,
          before: presentNode(before),
          after: presentNode(changed),
        });
        return changed;
      });
      return ok(request, presentNode(after));
    },
  );

  routes.delete(
    '/nodes/:id',
    { config: { staff: 'nodes.edit' }, schema: { tags, params: uuidParams, response: replies(noFields) } },
    async (request) => {
      await changing(async (tx) => {
        if (!(await lockNode(tx, request.params.id))) throw new AppError(404, 'not_found');
        const before = await findNode(tx, request.params.id);
        await tx.delete(nodes).where(eq(nodes.id, request.params.id));
        await audit(tx, request, {
          action: 'node.remove',
          targetType: 'node',
          targetId: request.params.id,
          before: before ? presentNode(before) : null,
          after: { removed: true },
        });
      });
      return ok(request, {});
    },
  );

  /**
   * A node's API token: a new one replaces the old at once (rotation), and is shown this once; the
   * server keeps its hash. Without one (revoked), the node's agent is refused.
   */
  const setToken = (request: FastifyRequest, id: string, token: string | null) =>
    db.transaction(async (tx) => {
      const before = await lockNode(tx, id);
      if (!before) throw new AppError(404, 'not_found');
      await tx
        .update(nodes)
        .set({ tokenHash: token === null ? null : hashToken(token) })
        .where(eq(nodes.id, id));
      await audit(tx, request, {
        action: token === null ? 'node.token_revoke' : 'node.token_issue',
        targetType: 'node',
        targetId: id,
        // Whether it had one, never the token.
        before: { token_issued: before.tokenHash !== null },
        after: { token_issued: token !== null },
      });
    });

  routes.post(
    '/nodes/:id/token',
    {
      config: { staff: 'nodes.edit' },
      schema: { tags, params: uuidParams, response: replies(nodeTokenSchema) },
    },
    async (request) => {
      const token = randomBytes(32).toString('base64url');
      await setToken(request, request.params.id, token);
      return ok(request, { token });
    },
  );

  routes.delete(
    '/nodes/:id/token',
    { config: { staff: 'nodes.edit' }, schema: { tags, params: uuidParams, response: replies(noFields) } },
    async (request) => {
      await setToken(request, request.params.id, null);
      return ok(request, {});
    },
  );

  routes.post(
    '/nodes/:id/inbounds',
    {
      config: { staff: 'nodes.edit' },
      schema: { tags, params: uuidParams, body: inboundRequest, response: replies(inboundSchema) },
    },
    async (request) => {
      const created = await changing(async (tx) => {
        if (!(await lockNode(tx, request.params.id))) throw new AppError(404, 'not_found');
        const [row] = await tx
          .insert(inbounds)
          .values({ nodeId: request.params.id, ...inboundColumns(request.body) })
          .returning();
        if (!row) throw new Error('inbound not written');
        await tx.update(nodes).set({ updatedAt: new Date() }).where(eq(nodes.id, request.params.id));
        await audit(tx, request, {
          action: 'inbound.create',
          targetType: 'inbound',
          targetId: row.id,
          before: null,
          after: presentInbound(row),
        });
        return row;
      });
      return ok(request, presentInbound(created));
    },
  );

  routes.patch(
    '/inbounds/:id',
    {
      config: { staff: 'nodes.edit' },
      schema: { tags, params: uuidParams, body: inboundRequest, response: replies(inboundSchema) },
    },
    async (request) => {
      const changed = await changing(async (tx) => {
        const before = await lockInbound(tx, request.params.id);
        if (!before) throw new AppError(404, 'not_found');
        const [row] = await tx
          .update(inbounds)
          .set(inboundColumns(request.body, before))
          .where(eq(inbounds.id, before.id))
          .returning();
        if (!row) throw new AppError(404, 'not_found');
        await tx.update(nodes).set({ updatedAt: new Date() }).where(eq(nodes.id, row.nodeId));
        await audit(tx, request, {
          action: 'inbound.change',
          targetType: 'inbound',
          targetId: row.id,
          before: presentInbound(before),
          after: presentInbound(row),
        });
        return row;
      });
      return ok(request, presentInbound(changed));
    },
  );

  routes.delete(
    '/inbounds/:id',
    { config: { staff: 'nodes.edit' }, schema: { tags, params: uuidParams, response: replies(noFields) } },
    async (request) => {
      await changing(async (tx) => {
        const before = await lockInbound(tx, request.params.id);
        if (!before) throw new AppError(404, 'not_found');
        await tx.delete(inbounds).where(eq(inbounds.id, before.id));
        await tx.update(nodes).set({ updatedAt: new Date() }).where(eq(nodes.id, before.nodeId));
        await audit(tx, request, {
          action: 'inbound.remove',
          targetType: 'inbound',
          targetId: before.id,
          before: presentInbound(before),
          after: { removed: true },
        });
      });
      return ok(request, {});
    },
  );
}
