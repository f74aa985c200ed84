import type { Database } from '../../db/client.ts';
import type { NodeRow } from '../../db/schema/index.ts';
import { AppError } from '../../http/errors.ts';
import { hashToken } from '../../lib/token-hash.ts';
import { markSeen, nodeByTokenHash } from '../nodes/repository.ts';

/** The node types these routes serve; V2bX and XrayR call VMess `v2ray` too. */
export const UNIPROXY_TYPES = ['vless', 'vmess', 'trojan', 'shadowsocks'] as const;
export type UniProxyType = (typeof UNIPROXY_TYPES)[number];

/** The query every UniProxy call carries (V2bX `api/panel/panel.go`, XrayR `newV2board.New`). */
export interface UniProxyQuery {
  node_id?: unknown;
  node_type?: unknown;
  token?: unknown;
}

/** The last-seen time is written at most this often (as for the node's own agent). */
const SEEN_EVERY_MS = 15_000;

/**
 * The node of a UniProxy call: the node whose own API token (the one `/node/v1/` takes) is `token`,
 * looked up by its hash on every call, and which `node_id` names, by its integer `number` (what V2bX
 * and XrayR can send) or its id. A wrong, rotated or revoked token, or one of another node, is 401
 * `node_token_invalid`; a disabled node 403 `node_disabled`.
 */
export async function uniproxyNode(db: Database, query: UniProxyQuery, now: Date): Promise<NodeRow> {
  const token = typeof query.token === 'string' && query.token !== '' ? query.token : null;
  const node = token ? await nodeByTokenHash(db, hashToken(token)) : undefined;
  const named = typeof query.node_id === 'string' ? query.node_id : '';
  if (!node || (named !== String(node.number) && named.toLowerCase() !== node.id)) {
    throw new AppError(401, 'node_token_invalid');
  }
  if (!node.enabled) throw new AppError(403, 'node_disabled');
  if (!node.lastSeenAt || now.getTime() - node.lastSeenAt.getTime() >= SEEN_EVERY_MS) {
    await markSeen(db, node.id, now);
  }
  return node;
}

/** `node_type`, required by `config` and `user`: one of ours, `v2ray` being VMess (as in Xboard). */
export function uniproxyType(query: UniProxyQuery): UniProxyType {
  if (typeof query.node_type !== 'string' || query.node_type === '') {
    throw new AppError(400, 'field_required', { field: 'node_type' });
  }
  const type = query.node_type.toLowerCase();
  const normalized = type === 'v2ray' ? 'vmess' : type;
  if (!(UNIPROXY_TYPES as readonly string[]).includes(normalized)) {
    throw new AppError(400, 'field_invalid', { field: 'node_type' });
  }
  return normalized as UniProxyType;
}
