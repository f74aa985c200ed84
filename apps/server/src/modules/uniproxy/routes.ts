import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../../db/client.ts';
import { AliveAddresses } from './alive.ts';
import { type UniProxyQuery, uniproxyNode, uniproxyType } from './auth.ts';
import {
  etagOf,
  holdsAlready,
  pushedTraffic,
  receivePush,
  servedInbound,
  uniproxyConfig,
  uniproxyUsers,
} from './service.ts';
import type { UniProxyAliveList } from './shapes.ts';

/** A push or alive report of 100,000 users. */
const BODY_LIMIT = 32 * 1024 * 1024;

const PREFIX = '/api/v1/server/UniProxy';

/** Sends a JSON reply with its ETag, or 304 when the program holds it already. */
function sendTagged(request: FastifyRequest, reply: FastifyReply, value: unknown): FastifyReply {
  const body = JSON.stringify(value);
  const etag = etagOf(body);
  reply.header('etag', etag);
  if (holdsAlready(request.headers['if-none-match'], etag)) return reply.code(304).send();
  return reply.type('application/json; charset=utf-8').send(body);
}

/**
 * The UniProxy compatibility routes (PRODUCT.md section 6): the node API of Xboard / V2board that
 * existing node programs speak (V2bX, XrayR), so that an operator points them at us unchanged. The
 * shapes and the sources they follow are in `shapes.ts`; what is honoured and what is not, in
 * docs/decisions/uniproxy.md. Refusals are our envelope with a 4xx status (the
 * programs log any 4xx and keep what they hold).
 */
export async function uniproxyRoutes(app: FastifyInstance, options: { db: Database }): Promise<void> {
  const { db } = options;
  const alive = new AliveAddresses();
  // Nodes call often and are few: the per-address ceiling of the customers' calls is not theirs.
  const config = { ceiling: false } as const;

  app.get(`${PREFIX}/config`, { config }, async (request, reply) => {
    const query = request.query as UniProxyQuery;
    const node = await uniproxyNode(db, query, new Date());
    const inbound = await servedInbound(db, node, uniproxyType(query));
    return sendTagged(request, reply, uniproxyConfig(node, inbound));
  });

  app.get(`${PREFIX}/user`, { config }, async (request, reply) => {
    const query = request.query as UniProxyQuery;
    const now = new Date();
    const node = await uniproxyNode(db, query, now);
    const type = uniproxyType(query);
    await servedInbound(db, node, type);
    return sendTagged(request, reply, await uniproxyUsers(db, node, type, now));
  });

  app.post(`${PREFIX}/push`, { config, bodyLimit: BODY_LIMIT }, async (request) => {
    const now = new Date();
    const node = await uniproxyNode(db, request.query as UniProxyQuery, now);
    const { implausible, refused } = await receivePush(db, node, pushedTraffic(request.body), now);
    if (implausible || refused > 0) {
      request.log.warn({ node: node.id, implausible, refused }, 'uniproxy push: traffic refused');
    }
    // Xboard's success reply (`ApiResponse::success(true)`); the programs read only the status.
    return { status: 'success', message: 'ok', data: true, error: null };
  });

  app.post(`${PREFIX}/alive`, { config, bodyLimit: BODY_LIMIT }, async (request) => {
    const now = new Date();
    const node = await uniproxyNode(db, request.query as UniProxyQuery, now);
    alive.record(node.id, request.body, now.getTime());
    return { data: true };
  });

  // Not one of the five, but XrayR reports its machine's load here every minute (Xboard keeps it for
  // its screens): acknowledged so that its log stays clean, its contents not kept (its shape is not
  // our agent's status). The call marks the node seen like every other.
  app.post(`${PREFIX}/status`, { config }, async (request) => {
    await uniproxyNode(db, request.query as UniProxyQuery, new Date());
    return { data: true, code: 0, message: 'success' };
  });

  app.get(`${PREFIX}/alivelist`, { config }, async (request): Promise<UniProxyAliveList> => {
    const now = new Date();
    await uniproxyNode(db, request.query as UniProxyQuery, now);
    return { alive: alive.counts(now.getTime()) };
  });
}
