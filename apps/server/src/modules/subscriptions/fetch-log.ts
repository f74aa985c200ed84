import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.ts';
import { type FetchRecord, writeFetches } from './repository.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The subscription links' fetch log, written in batches (tests flush it before reading the log). */
    subscriptionFetches: FetchLog;
  }
}

/**
 * How long a fetch may wait before it is written, and how many make a flush at once. A flush of 100
 * takes the embedded database, which runs in this process, some 7 ms (a slot's row and its indexes
 * rewritten for each), during which requests wait: larger batches made the slowest fetches slower.
 * PostgreSQL does it in its own process.
 */
export const FLUSH_EVERY_MS = 1_000;
export const FLUSH_ROWS = 100;
/**
 * Fetches kept while the database does not take them (an outage), retried with every flush; past
 * this, the oldest log rows are given up (counted in a warning), the slots' last fetches never.
 */
export const MAX_PENDING_ROWS = 100_000;

export interface FetchLog {
  /** Counts a fetch, at once and without a round trip: it is written with the next flush. */
  record(fetch: FetchRecord): void;
  /** Writes every fetch recorded so far (one statement); throws when the database did not take it. */
  flush(): Promise<void>;
  /** Fetches recorded and not yet written. */
  pending(): number;
  /** The last flush, at the app's close: nothing recorded is left behind on a graceful shutdown. */
  close(): Promise<void>;
}

/**
 * The log of the subscription links' fetches (`subscription_fetches`) and each slot's last fetch,
 * kept in memory and written together every FLUSH_EVERY_MS, or as soon as FLUSH_ROWS are waiting:
 * one statement, and one commit, for a second of fetches rather than two writes for each fetch. A
 * flush the database refuses (an outage, a deadlock with an account's transaction over a slot's row)
 * leaves its fetches for the next one. A slot removed meanwhile (its account deleted) has its fetches
 * dropped with it, as the log's foreign key would have.
 */
export function createFetchLog(options: {
  db: Database;
  log: FastifyBaseLogger;
  flushEveryMs?: number;
  flushRows?: number;
  maxPendingRows?: number;
}): FetchLog {
  const { db, log } = options;
  const flushEveryMs = options.flushEveryMs ?? FLUSH_EVERY_MS;
  const flushRows = options.flushRows ?? FLUSH_ROWS;
  const maxPendingRows = options.maxPendingRows ?? MAX_PENDING_ROWS;
  let rows: FetchRecord[] = [];
  /** Each slot's latest fetch not yet written. */
  let lastFetches = new Map<string, Date>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let failing = false;
  let closed = false;

  const schedule = () => {
    if (closed) return;
    timer ??= setTimeout(() => {
      timer = undefined;
      flush().catch(() => undefined);
    }, flushEveryMs).unref();
  };

  const noteLastFetch = (map: Map<string, Date>, slotId: string, at: Date) => {
    const known = map.get(slotId);
    if (!known || known < at) map.set(slotId, at);
  };

  /** Puts back what a failed flush took, before what came since, within the bound. */
  const putBack = (taken: FetchRecord[], takenLast: Map<string, Date>) => {
    rows = taken.concat(rows);
    for (const [slotId, at] of takenLast) noteLastFetch(lastFetches, slotId, at);
    const over = rows.length - maxPendingRows;
    if (over > 0) {
      rows = rows.slice(over);
      log.warn(
        { dropped: over },
        'subscription fetch log: the database is away, the oldest fetches are dropped',
      );
    }
  };

  async function write(): Promise<void> {
    if (rows.length === 0 && lastFetches.size === 0) return;
    const taken = rows;
    const takenLast = lastFetches;
    rows = [];
    lastFetches = new Map();
    try {
      await writeFetches(db, taken, takenLast);
      if (failing) log.info('subscription fetch log: written again');
      failing = false;
    } catch (error) {
      putBack(taken, takenLast);
      if (!failing)
        log.warn({ err: error, pending: rows.length }, 'subscription fetch log: not written, kept');
      failing = true;
      throw error;
    }
  }

  async function flush(): Promise<void> {
    // One flush at a time: the next takes what the running one did not.
    while (running) await running.catch(() => undefined);
    running = write().finally(() => {
      running = undefined;
      // What came during the flush: at once when a batch is waiting (and the database answering).
      if (rows.length >= flushRows && !failing && !closed) flush().catch(() => undefined);
      else if (rows.length > 0 || lastFetches.size > 0) schedule();
    });
    await running;
  }

  return {
    record(fetch) {
      rows.push(fetch);
      noteLastFetch(lastFetches, fetch.slotId, fetch.at);
      // While the database refuses them, flushes wait for the timer rather than follow every fetch.
      if (rows.length >= flushRows && !running && !failing) flush().catch(() => undefined);
      else schedule();
    },
    flush,
    pending: () => rows.length,
    async close() {
      closed = true;
      clearTimeout(timer);
      timer = undefined;
      try {
        do await flush();
        while (rows.length > 0 || lastFetches.size > 0);
      } catch (error) {
        log.error({ err: error, lost: rows.length }, 'subscription fetch log: not written at close');
      }
    },
  };
}
