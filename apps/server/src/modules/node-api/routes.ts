import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { noFields } from '@skyway/shared/schemas/envelope';
import {
  credentialsQuery,
  nodeConfigSchema,
  nodeCredentialsSchema,
  nodeOnlineRequest,
  nodeReportReply,
  nodeReportRequest,
  nodeStatusRequest,
} from '@skyway/shared/schemas/node-api';
import type { Database } from '../../db/client.ts';
import type { NodeRow } from '../../db/schema/index.ts';
import { ok, replies } from '../../http/envelope.ts';
import { AppError } from '../../http/errors.ts';
import { callingNode } from './auth.ts';
import type { NodeEvents } from './events.ts';
import { markSeen } from '../nodes/repository.ts';
import { presencePolicy } from '../presence/service.ts';
import type { PresencePolicy } from '../presence/rules.ts';
import { receiveReport } from './reports.ts';
import { nodeConfig, nodeCredentials, receiveLiveAddresses } from './service.ts';

/** A node's live addresses, those of slots it does not serve refused (logged without the slots). */
async function acceptSightings(
  db: Database,
  node: NodeRow,
  addresses: z.infer<typeof nodeOnlineRequest>['addresses'],
  now: Date,
  policy: PresencePolicy,
  log: FastifyBaseLogger,
): Promise<void> {
  const refused = await receiveLiveAddresses(db, node, addresses, now, policy);
  if (refused > 0) log.warn({ node: node.id, refused }, 'node sightings refused: slots it does not serve');
}

/** A report of 100,000 credentials with their addresses. */
const REPORT_BODY_LIMIT = 32 * 1024 * 1024;

/** The node API (`/node/v1/`): what each node's agent pulls, reports and listens to. */
export async function nodeApiRoutes(
  app: FastifyInstance,
  options: { db: Database; events: NodeEvents; onlineIntervalSeconds: number },
): Promise<void> {
  const { db, events, onlineIntervalSeconds } = options;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  // Nodes call often and are few: the per-address ceiling of the customers' calls is not theirs.
  const config = { ceiling: false } as const;

  routes.get(
    '/node/v1/config',
    // 304 when the node holds this config already (its ETag in `if-none-match`).
    { config, schema: { response: { ...replies(nodeConfigSchema), 304: z.null() } } },
    async (request, reply) => {
      const node = await callingNode(db, request, new Date());
      const { config: served, etag } = await nodeConfig(db, node, onlineIntervalSeconds);
      reply.header('etag', etag);
      if (request.headers['if-none-match'] === etag) return reply.code(304).send(null);
      return ok(request, served);
    },
  );

  routes.get(
    '/node/v1/credentials',
    { config, schema: { querystring: credentialsQuery, response: replies(nodeCredentialsSchema) } },
    async (request) => {
      const now = new Date();
      const node = await callingNode(db, request, now);
      return ok(request, await nodeCredentials(db, node, request.query.since, now));
    },
  );

  routes.post(
    '/node/v1/report',
    {
      config,
      bodyLimit: REPORT_BODY_LIMIT,
      schema: { body: nodeReportRequest, response: replies(nodeReportReply) },
    },
    async (request) => {
      const now = new Date();
      const node = await callingNode(db, request, now);
      if (request.body.from > request.body.to) throw new AppError(400, 'field_invalid', { field: 'from' });
      const { applied, implausible, refused } = await receiveReport(db, node, request.body, now);
      if (implausible || refused > 0) {
        request.log.warn({ node: node.id, implausible, refused }, 'node report: traffic refused');
      }
      // An agent on 1.0 sends its live addresses with its reports: they count while they are fresh.
      if (applied && request.body.addresses.length > 0) {
        const policy = await presencePolicy(db, onlineIntervalSeconds);
        if (now.getTime() - request.body.to * 1000 <= policy.liveMs) {
          await acceptSightings(db, node, request.body.addresses, now, policy, request.log);
        }
      }
      return ok(request, {
        applied,
        sequence: request.body.sequence,
        ...(refused > 0 ? { refused } : {}),
        ...(implausible ? { implausible } : {}),
      });
    },
  );

  routes.post(
    '/node/v1/online',
    {
      config,
      bodyLimit: REPORT_BODY_LIMIT,
      schema: { body: nodeOnlineRequest, response: replies(noFields) },
    },
    async (request) => {
      const now = new Date();
      const node = await callingNode(db, request, now);
      const policy = await presencePolicy(db, onlineIntervalSeconds);
      await acceptSightings(db, node, request.body.addresses, now, policy, request.log);
      return ok(request, {});
    },
  );

  routes.post(
    '/node/v1/status',
    { config, schema: { body: nodeStatusRequest, response: replies(noFields) } },
    async (request) => {
      const now = new Date();
      const node = await callingNode(db, request, now);
      await markSeen(db, node.id, now, request.body);
      return ok(request, {});
    },
  );

  routes.get(
    '/node/v1/events',
    { config, schema: { response: replies(noFields) } },
    async (request, reply) => {
      const node = await callingNode(db, request, new Date());
      reply.hijack();
      reply.raw.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        'x-accel-buffering': 'no',
        'x-request-id': request.id,
      });
      await events.listen(node.id, reply.raw);
    },
  );
}
