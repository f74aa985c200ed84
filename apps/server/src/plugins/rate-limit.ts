import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { AppError } from './errors.ts';

/**
 * A ceiling on calls per client address and minute across all `/web/` calls: a floor of protection
 * under the per-action limits. Counters live in Redis when REDIS_URL is set, so every instance
 * behind a load balancer counts together; in process memory otherwise.
 */
export const rateLimitPlugin = fp(
  async (app: FastifyInstance, options: { perMinute: number; redis: Redis | undefined }) => {
    await app.register(rateLimit, {
      max: options.perMinute,
      timeWindow: 60_000,
      // After the body is read, so the refusal speaks the language of the call's `l` field.
      hook: 'preValidation',
      redis: options.redis,
      nameSpace: 'skyway:rate:',
      // A Redis outage must not take the site down with it.
      skipOnError: true,
      allowList: (request) => !request.url.startsWith('/web/'),
      errorResponseBuilder: (_request, context) =>
        new AppError(429, 'too_many_requests', { retryAfter: Math.max(1, Math.ceil(context.ttl / 1000)) }),
    });
  },
  { name: 'rate-limit', dependencies: ['errors'] },
);
