import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { createBatchedCounters } from './batched-counters.ts';

export interface CounterState {
  count: number;
  /** Seconds until the window ends and the count starts again from zero. */
  resetIn: number;
}

/**
 * Fixed-window counters for the limits (the call ceiling, code requests, sign-in failures). In Redis
 * when REDIS_URL is set, so that every instance counts together; in this process otherwise.
 */
export interface Counters {
  /** Adds one to the key's count, starting a window of `windowSeconds` on the first hit. */
  hit(key: string, windowSeconds: number): Promise<CounterState>;
  clear(key: string): Promise<void>;
}

/**
 * Where the counts are kept: `ok` in Redis, shared by every instance; `degraded` in this process
 * because Redis is unreachable; `off` in this process because no Redis is configured.
 */
export type SharedCountersState = 'ok' | 'degraded' | 'off';

export interface LimitCounters extends Counters {
  /**
   * Like `hit`, but at once, without a round trip: shared with the other instances within
   * BATCH_EVERY_MS (see `createBatchedCounters`). For the call ceiling, which every call pays.
   */
  hitSoon(key: string, windowSeconds: number): CounterState;
  state(): SharedCountersState;
}

/** Windows the in-process counters keep before they first sweep the ended ones. */
const PRUNE_AT_LEAST = 10_000;

export function createMemoryCounters(
  // Read at each hit, so a test's clock moves the windows too.
  now: () => number = () => Date.now(),
): Counters & Pick<LimitCounters, 'hitSoon'> {
  const windows = new Map<string, { count: number; endsAt: number }>();
  // Ended windows are swept when the map has doubled since the last sweep (10,000 at least), so that
  // a sweep's cost is spread over as many hits as it looked at, however many windows are still open
  // (a subscription link's lasts an hour, and every customer's app fetches).
  let sweepAt = PRUNE_AT_LEAST;
  const prune = (at: number) => {
    for (const [key, window] of windows) if (window.endsAt <= at) windows.delete(key);
    sweepAt = Math.max(PRUNE_AT_LEAST, windows.size * 2);
  };
  const hitSoon = (key: string, windowSeconds: number): CounterState => {
    const at = now();
    if (windows.size > sweepAt) prune(at);
    let window = windows.get(key);
    if (!window || window.endsAt <= at) {
      window = { count: 0, endsAt: at + windowSeconds * 1000 };
      windows.set(key, window);
    }
    window.count += 1;
    return { count: window.count, resetIn: Math.max(1, Math.ceil((window.endsAt - at) / 1000)) };
  };
  return {
    hitSoon,
    hit: async (key, windowSeconds) => hitSoon(key, windowSeconds),
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

const PREFIX = 'skyway:count:';

export function createRedisCounters(redis: Redis, prefix = PREFIX): Counters {
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

/** While Redis is away, how often a background probe asks whether it is back. */
const PROBE_EVERY_MS = 2_000;
/** How late instances may see each other's `hitSoon` hits. */
export const BATCH_EVERY_MS = 100;

/**
 * The counters of an instance. With Redis they are shared, and a Redis outage must not become the
 * site's outage: a failed or slow command switches this instance to counters of its own (limits
 * then hold per instance), logged once, until a background probe finds Redis answering again.
 * Counts made in process during the outage are not carried over; the windows are short.
 */
export function createLimitCounters(redis: Redis | undefined, log: FastifyBaseLogger): LimitCounters {
  const local = createMemoryCounters();
  if (!redis) return { ...local, state: () => 'off' };
  const shared = createRedisCounters(redis);
  const batched = createBatchedCounters({
    redis,
    prefix: PREFIX,
    flushEveryMs: BATCH_EVERY_MS,
    flushed: (error) => error && fallBack(error),
  });
  let degraded = false;
  let probe: NodeJS.Timeout | undefined;

  const recover = async () => {
    try {
      // A connection stuck half-open (Redis accepted but never answered) only heals by reconnecting.
      if (redis.status !== 'ready') return void (redis.status === 'connect' && redis.disconnect(true));
      await redis.ping();
      degraded = false;
      clearInterval(probe);
      probe = undefined;
      log.info('redis is back: limits are shared by every instance again');
    } catch {
      redis.disconnect(true);
    }
  };
  const fallBack = (error: unknown) => {
    if (!degraded)
      log.warn({ err: error }, 'redis is unavailable: limits count in this instance until it returns');
    degraded = true;
    probe ??= setInterval(() => void recover(), PROBE_EVERY_MS).unref();
  };
  if (redis.status !== 'ready') fallBack(new Error(`redis is ${redis.status} at start`));

  const either = async <T>(remote: () => Promise<T>, inProcess: () => Promise<T>): Promise<T> => {
    if (degraded) return inProcess();
    try {
      return await remote();
    } catch (error) {
      fallBack(error);
      return inProcess();
    }
  };
  return {
    // Counted here either way; while Redis is away its flushes fail and try again.
    hitSoon: (key, windowSeconds) => batched.hit(key, windowSeconds),
    hit: (key, windowSeconds) =>
      either(
        () => shared.hit(key, windowSeconds),
        () => local.hit(key, windowSeconds),
      ),
    clear: async (key) => {
      // Both, so a count made in process during an outage is not left behind either.
      await local.clear(key);
      await either(
        () => shared.clear(key),
        async () => undefined,
      );
    },
    state: () => (degraded ? 'degraded' : 'ok'),
  };
}
