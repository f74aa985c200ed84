import { once } from 'node:events';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';

/** How long start-up waits for Redis before going on without it (the limits count in process until it comes). */
const START_WAIT_MS = 1_000;

/**
 * The one Redis connection of an instance (shared limit counters), or none without REDIS_URL. It
 * never blocks a request: commands fail at once while the connection is down (no offline queue) and
 * after a short timeout when Redis stops answering, and ioredis keeps reconnecting in the background.
 */
export async function connectRedis(
  url: string | undefined,
  log: FastifyBaseLogger,
): Promise<Redis | undefined> {
  if (!url) return undefined;
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 2_000,
    commandTimeout: 500,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  });
  // Errors repeat on every reconnection attempt while Redis is away; the counters log the outage once.
  redis.on('error', (error) => log.debug({ err: error }, 'redis connection error'));
  redis.connect().catch(() => undefined);
  const timeout = AbortSignal.timeout(START_WAIT_MS);
  await once(redis, 'ready', { signal: timeout }).catch(() => undefined);
  return redis;
}
