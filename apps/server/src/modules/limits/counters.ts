import type { Redis } from 'ioredis';

export interface CounterState {
  count: number;
  /** Seconds until the window ends and the count starts again from zero. */
  resetIn: number;
}

/**
 * Fixed-window counters for the per-action limits (code requests, sign-in failures). In Redis when
 * REDIS_URL is set, so that every instance counts together; in this process otherwise.
 */
export interface Counters {
  /** Adds one to the key's count, starting a window of `windowSeconds` on the first hit. */
  hit(key: string, windowSeconds: number): Promise<CounterState>;
  clear(key: string): Promise<void>;
}

export function createMemoryCounters(now: () => number = Date.now): Counters {
  const windows = new Map<string, { count: number; endsAt: number }>();
  const prune = (at: number) => {
    for (const [key, window] of windows) if (window.endsAt <= at) windows.delete(key);
  };
  return {
    async hit(key, windowSeconds) {
      const at = now();
      if (windows.size > 10_000) prune(at);
      let window = windows.get(key);
      if (!window || window.endsAt <= at) {
        window = { count: 0, endsAt: at + windowSeconds * 1000 };
        windows.set(key, window);
      }
      window.count += 1;
      return { count: window.count, resetIn: Math.max(1, Math.ceil((window.endsAt - at) / 1000)) };
    },
    async clear(key) {
      windows.delete(key);
    },
  };
}

// One round trip, atomic: the first hit of a window sets its expiry.
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return { count, redis.call('PTTL', KEYS[1]) }`;

export function createRedisCounters(redis: Redis, prefix = 'skyway:count:'): Counters {
  return {
    async hit(key, windowSeconds) {
      const [count, ttl] = (await redis.eval(HIT_SCRIPT, 1, prefix + key, String(windowSeconds * 1000))) as [
        number,
        number,
      ];
      return { count, resetIn: Math.max(1, Math.ceil(ttl / 1000)) };
    },
    async clear(key) {
      await redis.del(prefix + key);
    },
  };
}
