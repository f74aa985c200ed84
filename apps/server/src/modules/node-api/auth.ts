import type { FastifyRequest } from 'fastify';
import { NODE_API_HEADER, NODE_API_VERSION } from '@skyway/shared/schemas/node-api';
import type { Database } from '../../db/client.ts';
import type { NodeRow } from '../../db/schema/index.ts';
import { tokenFromHeader } from '../../http/authorization.ts';
import { AppError } from '../../http/errors.ts';
import { hashToken } from '../../lib/token-hash.ts';
import { markSeen, nodeByTokenHash } from '../nodes/repository.ts';

const MAJOR = NODE_API_VERSION.split('.')[0];
/** The last-seen time is written at most this often. */
const SEEN_EVERY_MS = 15_000;

/**
 * The node of a node API call: its token's node (looked up by hash on every call, so a rotated or
 * revoked token, or a disabled node, is refused at once), speaking this major version of the contract.
 */
export async function callingNode(db: Database, request: FastifyRequest, now: Date): Promise<NodeRow> {
  const version = request.headers[NODE_API_HEADER];
  if (typeof version === 'string' && version.split('.')[0] !== MAJOR) {
    throw new AppError(400, 'node_api_version', { field: NODE_API_HEADER });
  }
  const token = tokenFromHeader(request.headers.authorization);
  const node = token ? await nodeByTokenHash(db, hashToken(token)) : undefined;
  if (!node) throw new AppError(401, 'node_token_invalid');
  if (!node.enabled) throw new AppError(403, 'node_disabled');
  if (!node.lastSeenAt || now.getTime() - node.lastSeenAt.getTime() >= SEEN_EVERY_MS) {
    await markSeen(db, node.id, now);
  }
  return node;
}
