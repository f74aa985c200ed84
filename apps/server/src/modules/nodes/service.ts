import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import {
  type inboundRequest,
  type nodeCreateRequest,
  type nodeListItemSchema,
  SS_KEY_BYTES,
} from '@skyway/shared/schemas/admin/nodes';
import type { Database } from '../../db/client.ts';
import type { InboundRow, NodeRow } from '../../db/schema/index.ts';
import { hashToken } from '../../lib/token-hash.ts';
import { AppError } from '../../http/errors.ts';
import { holdRevisions } from '../access/revisions.ts';
import { type AuditedChange, recordAudit, type StaffActor } from '../audit/repository.ts';
import { NO_USAGE, nodeUsageThisPeriod } from '../traffic/usage.ts';
import { forgetEnabledEndpoints } from './endpoints.ts';
import { presentInbound, presentNode, presentRefusal } from './present.ts';
import { refusalsByNode } from './refusals.ts';
import {
  deleteInbound,
  deleteNode,
  findNode,
  insertInbound,
  insertNode,
  listNodes,
  lockInbound,
  lockNode,
  type NodeWithInbounds,
  reviseEveryNode,
  updateInbound,
  updateNode,
} from './repository.ts';

/*
 * The proxy nodes and their inbounds (PRODUCT.md section 6). Each change is audited, with the node's
 * or the inbound's state before and after; an inbound is changed as a whole, so that its combination
 * of protocol, transport and TLS is checked as one.
 */

type NodeFields = Partial<z.infer<typeof nodeCreateRequest>>;
type InboundFields = z.infer<typeof inboundRequest>;

const nodeColumns = (body: NodeFields) => ({
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

/** A Shadowsocks 2022 inbound's server key: kept while its method's key length stays, else a new one. */
function serverKeyFor(body: InboundFields, before?: InboundRow): string | null {
  if (body.protocol !== 'shadowsocks' || !body.method) return null;
  const bytes = SS_KEY_BYTES[body.method];
  if (before?.serverKey && Buffer.from(before.serverKey, 'base64').length === bytes) return before.serverKey;
  return randomBytes(bytes).toString('base64');
}

const inboundColumns = (body: InboundFields, before?: InboundRow) => ({
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
 * A change to the nodes or inbounds and its audit row, in one transaction; once it has committed,
 * the subscription links serve it from their next fetch (they keep the list in memory for a few
 * seconds), and every node's agent, told by its change stream, pulls its config and its whole
 * credential list again (who may use a node may have changed; such changes are rare, and a full list
 * is cheap).
 */
async function changing<T>(
  db: Database,
  actor: StaffActor,
  work: (tx: Database) => Promise<{ result: T; audit: AuditedChange }>,
): Promise<T> {
  try {
    return await db.transaction(async (tx) => {
      await holdRevisions(tx);
      const { result, audit } = await work(tx);
      await recordAudit(tx, actor, audit, new Date());
      await reviseEveryNode(tx);
      return result;
    });
  } finally {
    forgetEnabledEndpoints(db);
  }
}

/** Every node with its traffic this period and what it sent that was refused (the Nodes screen). */
export async function nodeList(db: Database, now: Date): Promise<z.infer<typeof nodeListItemSchema>[]> {
  const [list, usage, refusals] = await Promise.all([
    listNodes(db),
    nodeUsageThisPeriod(db, now),
    refusalsByNode(db),
  ]);
  return list.map((node) => ({
    ...presentNode(node),
    traffic: usage.get(node.id) ?? NO_USAGE,
    refusals: (refusals.get(node.id) ?? []).map(presentRefusal),
  }));
}

export const createNode = (db: Database, actor: StaffActor, body: z.infer<typeof nodeCreateRequest>) =>
  changing(db, actor, async (tx) => {
    const { name, region, host } = body;
    const row = await insertNode(tx, { ...nodeColumns(body), name, region, host });
    const node: NodeWithInbounds = { ...row, inbounds: [] };
    return {
      result: node,
      audit: {
        action: 'node.create',
        targetType: 'node',
        targetId: row.id,
        before: null,
        after: presentNode(node),
      },
    };
  });

export const changeNode = (db: Database, actor: StaffActor, id: string, body: NodeFields) =>
  changing(db, actor, async (tx) => {
    if (!(await lockNode(tx, id))) throw new AppError(404, 'not_found');
    const before = await findNode(tx, id);
    await updateNode(tx, id, { ...nodeColumns(body), updatedAt: new Date() });
    const changed = await findNode(tx, id);
    if (!before || !changed) throw new AppError(404, 'not_found');
    return {
      result: changed,
      audit: {
        action: 'node.change',
        targetType: 'node',
        targetId: changed.id,
        before: presentNode(before),
        after: presentNode(changed),
      },
    };
  });

export const removeNode = (db: Database, actor: StaffActor, id: string) =>
  changing(db, actor, async (tx) => {
    if (!(await lockNode(tx, id))) throw new AppError(404, 'not_found');
    const before = await findNode(tx, id);
    await deleteNode(tx, id);
    return {
      result: undefined,
      audit: {
        action: 'node.remove',
        targetType: 'node',
        targetId: id,
        before: before ? presentNode(before) : null,
        after: { removed: true },
      },
    };
  });

/**
 * A node's API token: a new one replaces the old at once (rotation), and is shown this once; the
 * server keeps its hash. Without one (revoked), the node's agent is refused.
 */
const setToken = (db: Database, actor: StaffActor, id: string, token: string | null) =>
  db.transaction(async (tx) => {
    const before: NodeRow | undefined = await lockNode(tx, id);
    if (!before) throw new AppError(404, 'not_found');
    await updateNode(tx, id, { tokenHash: token === null ? null : hashToken(token) });
    await recordAudit(
      tx,
      actor,
      {
        action: token === null ? 'node.token_revoke' : 'node.token_issue',
        targetType: 'node',
        targetId: id,
        // Whether it had one, never the token.
        before: { token_issued: before.tokenHash !== null },
        after: { token_issued: token !== null },
      },
      new Date(),
    );
  });

/** A new token for the node, replacing its old one: the token, to be shown this once. */
export async function issueNodeToken(db: Database, actor: StaffActor, id: string): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await setToken(db, actor, id, token);
  return token;
}

export const revokeNodeToken = (db: Database, actor: StaffActor, id: string) => setToken(db, actor, id, null);

export const createInbound = (db: Database, actor: StaffActor, nodeId: string, body: InboundFields) =>
  changing(db, actor, async (tx) => {
    if (!(await lockNode(tx, nodeId))) throw new AppError(404, 'not_found');
    const row = await insertInbound(tx, { nodeId, ...inboundColumns(body) });
    return {
      result: row,
      audit: {
        action: 'inbound.create',
        targetType: 'inbound',
        targetId: row.id,
        before: null,
        after: presentInbound(row),
      },
    };
  });

export const changeInbound = (db: Database, actor: StaffActor, id: string, body: InboundFields) =>
  changing(db, actor, async (tx) => {
    const before = await lockInbound(tx, id);
    if (!before) throw new AppError(404, 'not_found');
    const row = await updateInbound(tx, before.id, inboundColumns(body, before));
    if (!row) throw new AppError(404, 'not_found');
    return {
      result: row,
      audit: {
        action: 'inbound.change',
        targetType: 'inbound',
        targetId: row.id,
        before: presentInbound(before),
        after: presentInbound(row),
      },
    };
  });

export const removeInbound = (db: Database, actor: StaffActor, id: string) =>
  changing(db, actor, async (tx) => {
    const before = await lockInbound(tx, id);
    if (!before) throw new AppError(404, 'not_found');
    await deleteInbound(tx, before);
    return {
      result: undefined,
      audit: {
        action: 'inbound.remove',
        targetType: 'inbound',
        targetId: before.id,
        before: presentInbound(before),
        after: { removed: true },
      },
    };
  });
