import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { LimitCounters } from '../modules/limits/counters.ts';
import { isCallPath } from './call-paths.ts';
import { AppError } from '../http/errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** `false` keeps a route out of the per-address call ceiling (provider webhooks, which are signed). */
    ceiling?: false;
  }
}

/**
 * A ceiling on calls per client address and minute across all calls (`/web/` and `/admin/api/`): a floor of protection
 * under the per-action limits. It counts with the instance's limit counters, without a round trip
 * (`hitSoon`): with REDIS_URL every instance behind a load balancer counts together, each seeing the
 * others' calls within a tenth of a second; in process when there is no Redis.
 */
export const rateLimitPlugin = fp(
  async (app: FastifyInstance, options: { perMinute: number; counters: Pick<LimitCounters, 'hitSoon'> }) => {
    // After the body is read, so the refusal speaks the language of the call's `l` field; before
    // the body's own checks, so that every call counts, malformed ones too.
    app.addHook('preValidation', async (request, reply) => {
      if (!isCallPath(request.url) || request.routeOptions.config.ceiling === false) return;
      const { count, resetIn } = options.counters.hitSoon(`ceiling:${request.ip}`, 60);
      reply.header('x-ratelimit-limit', String(options.perMinute));
      reply.header('x-ratelimit-remaining', String(Math.max(0, options.perMinute - count)));
      reply.header('x-ratelimit-reset', String(resetIn));
      if (count > options.perMinute) throw new AppError(429, 'too_many_requests', { retryAfter: resetIn });
    });
  },
  { name: 'rate-limit', dependencies: ['errors'] },
);
