import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { DatabaseHandle } from '../db/client.ts';
import { INACTIVE_ACCOUNTS_JOB } from '../modules/accounts/inactive-accounts.ts';
import type { LimitCounters } from '../modules/limits/counters.ts';
import type { Mailer } from '../modules/mail/mailer.ts';
import { lastFinishedJobs } from '../modules/operations/job-runs-repository.ts';
import { ORDERS_JOB } from '../modules/orders/orders-job.ts';

const dependencyState = z.enum(['ok', 'degraded', 'down', 'off']);

/** Reply of `GET /healthz`, for load balancers and operators (not a call: no envelope). */
const healthReply = z.object({
  status: z.enum(['ok', 'degraded', 'unavailable']),
  database: z.enum(['pglite', 'postgres']),
  dependencies: z.object({ database: dependencyState, redis: dependencyState, mail: dependencyState }),
  /** When each job last finished on any instance (ISO time, null = never); absent with a 503. */
  jobs: z.record(z.string(), z.string().nullable()).optional(),
});
const healthReplies = { 200: healthReply, 503: healthReply };

interface HealthOptions {
  database: Pick<DatabaseHandle, 'db' | 'kind'>;
  counters: Pick<LimitCounters, 'state'>;
  mailer: Pick<Mailer, 'state'>;
}

/** `GET /healthz`: whether this instance can serve, what each dependency is doing, and when the jobs last ran. */
export async function healthPlugin(app: FastifyInstance, { database, counters, mailer }: HealthOptions) {
  app.get('/healthz', { schema: { response: healthReplies } }, async (request, reply) => {
    const others = { redis: counters.state(), mail: mailer.state() };
    try {
      // One query, which is also the probe of the database.
      const finished = await lastFinishedJobs(database.db, [INACTIVE_ACCOUNTS_JOB, ORDERS_JOB]);
      const jobs = Object.fromEntries(
        Object.entries(finished).map(([name, at]) => [name, at?.toISOString() ?? null]),
      );
      // A degraded dependency leaves the instance serving (limits per instance, mail queued), so a
      // load balancer keeps it: only the database decides between 200 and 503.
      const status = Object.values(others).includes('degraded') ? 'degraded' : 'ok';
      // Jobs run on whichever instance gets to them: this says when any of them last finished one.
      return { status, database: database.kind, dependencies: { database: 'ok', ...others }, jobs };
    } catch (error) {
      request.log.error({ err: error }, 'health check failed');
      return reply.code(503).send({
        status: 'unavailable',
        database: database.kind,
        dependencies: { database: 'down', ...others },
      });
    }
  });
}
