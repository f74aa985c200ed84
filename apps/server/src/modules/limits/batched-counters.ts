import type { Redis } from 'ioredis';
import type { CounterState } from './counters.ts';

/**
 * Adds a batch's count to a key and starts its window on the first hit, in one step, answering the
 * shared total and the milliseconds left in the window.
 */
const ADD_SCRIPT = `
local count = redis.call('INCRBY', KEYS[1], ARGV[1])
if count == tonumber(ARGV[1]) then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return { count, redis.call('PTTL', KEYS[1]) }`;

interface Entry {
  /** The shared total Redis answered at the latest flush, this instance's hits included. */
  shared: number;
  /** Hits on their way to Redis in the flush under way. */
  sending: number;
  /** Hits since, not yet sent. */
  pending: number;
  windowMs: number;
  endsAt: number;
}

/** Windows kept before the first sweep of the ended ones. */
const SWEEP_AT_LEAST = 10_000;

export interface BatchedCounters {
  /** Counts the hit at once, without waiting for Redis, and answers the count as this instance knows it. */
  hit(key: string, windowSeconds: number): CounterState;
  /** Sends what was counted since the previous flush (tests call it to skip the wait). */
  flush(): Promise<void>;
}

export interface BatchedCountersOptions {
  redis: Redis;
  prefix: string;
  /** How long a hit may wait before it is added to the shared count. */
  flushEveryMs: number;
  /** Told how each flush went: an error when Redis did not take it. */
  flushed: (error?: unknown) => void;
  now?: () => number;
}

/**
 * Counters shared through Redis that cost a call no round trip. Hits are counted in this process and
 * added to Redis every `flushEveryMs`, all keys in one pipelined round trip; the count a hit answers
 * is the shared total heard at the latest flush plus this instance's hits since. An instance hears the
 * others' hits in the answer to its own flush, which follows its hits within `flushEveryMs`, so a
 * limit can be passed by the hits that all instances count in that time: right for the call ceiling, which every call pays, not for limits
 * that must hold to the unit (codes, sign-in failures). Hits that Redis could not take are sent again
 * with the next flush while their window lasts.
 */
export function createBatchedCounters(options: BatchedCountersOptions): BatchedCounters {
  const { redis, prefix, flushEveryMs, flushed } = options;
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();
  /** The keys hit since the last flush: a flush looks at these, not at every window still open. */
  const unsent = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let sweepAbove = SWEEP_AT_LEAST;

  // A window that ended takes its unsent hits along: they counted toward a limit that is over.
  // Ended windows are swept when the map has doubled since the last sweep, so that the sweeps cost
  // a hit nothing much however many windows are open (a subscription link's lasts an hour).
  const dropEnded = (at: number) => {
    for (const [key, entry] of entries) if (entry.endsAt <= at && entry.sending === 0) entries.delete(key);
    sweepAbove = Math.max(SWEEP_AT_LEAST, entries.size * 2);
  };

  async function send(): Promise<void> {
    const at = now();
    const batch: [string, Entry][] = [];
    for (const key of unsent) {
      const entry = entries.get(key);
      if (!entry || entry.pending === 0) continue;
      if (entry.endsAt <= at && entry.sending === 0) entries.delete(key);
      else batch.push([key, entry]);
    }
    unsent.clear();
    if (batch.length === 0) return;
    const pipeline = redis.pipeline();
    for (const [key, entry] of batch) {
      entry.sending = entry.pending;
      entry.pending = 0;
      pipeline.eval(ADD_SCRIPT, 1, prefix + key, String(entry.sending), String(entry.windowMs));
    }
    let replies: [Error | null, unknown][] | null = null;
    let failure: unknown;
    try {
      replies = await pipeline.exec();
    } catch (error) {
      failure = error;
    }
    const answered = now();
    batch.forEach(([key, entry], index) => {
      const [error, reply] = replies?.[index] ?? [failure ?? new Error('no reply'), undefined];
      if (error) {
        failure ??= error;
        // Sent again with the next flush while the window lasts; counted here meanwhile.
        entry.pending += entry.sending;
        unsent.add(key);
      } else {
        const [count, ttlMs] = reply as [number, number];
        entry.shared = count;
        entry.endsAt = answered + Math.max(0, ttlMs);
      }
      entry.sending = 0;
    });
    flushed(failure);
  }

  function schedule(): void {
    timer ??= setTimeout(() => {
      timer = undefined;
      void flush();
    }, flushEveryMs).unref();
  }

  async function flush(): Promise<void> {
    // One flush at a time: the next takes what the running one did not.
    while (running) await running;
    running = send().finally(() => {
      running = undefined;
    });
    await running;
    if (unsent.size > 0) schedule();
  }

  return {
    hit(key, windowSeconds) {
      const at = now();
      let entry = entries.get(key);
      if (!entry || entry.endsAt <= at) {
        if (entries.size >= sweepAbove) dropEnded(at);
        const windowMs = windowSeconds * 1000;
        entry = { shared: 0, sending: 0, pending: 0, windowMs, endsAt: at + windowMs };
        entries.set(key, entry);
      }
      entry.pending += 1;
      unsent.add(key);
      schedule();
      return {
        count: entry.shared + entry.sending + entry.pending,
        resetIn: Math.max(1, Math.ceil((entry.endsAt - at) / 1000)),
      };
    },
    flush,
  };
}
