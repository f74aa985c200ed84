import { Redis } from 'ioredis';

/** The one Redis connection of an instance (rate limits and counters), or none without REDIS_URL. */
export async function connectRedis(url: string | undefined): Promise<Redis | undefined> {
  if (!url) return undefined;
  // Short timeouts and one retry: a limit check must not hang a request when Redis is away.
  const redis = new Redis(url, { connectTimeout: 2000, maxRetriesPerRequest: 1, lazyConnect: true });
  await redis.connect();
  return redis;
}
