import type { Exchange } from './http.ts';
import type { Verdict } from './envelope.ts';

/** One reply seen under load, with the operation it was and how it counted. */
export interface Recorded {
  op: string;
  exchange: Exchange;
  verdict: Verdict;
}

export interface LoadOptions<Client> {
  /** Steps started per second, over all clients together. */
  ratePerSecond: number;
  /** The virtual clients; each runs one step at a time, so a client's steps happen in order. */
  clients: Client[];
  /** One request of one client; `sequence` counts steps over the whole load (to spread them over instances). */
  step(client: Client, sequence: number): Promise<void>;
}

export interface Load {
  /** Stops starting steps and waits for those in flight. */
  stop(): Promise<void>;
  /** Steps started. */
  started(): number;
  /** Ticks when every client was still busy: the rate asked for was not reached. */
  missed(): number;
  /** Errors thrown by `step` itself (a bug in the scenario, not a reply). */
  errors(): unknown[];
}

/**
 * An open-loop load: steps start at a fixed rate whatever the replies do, like independent users,
 * so a slow or failing server does not slow its own load down. A tick with no idle client counts
 * as missed rather than queueing, which keeps the load bounded on a small machine.
 */
export function startLoad<Client>(options: LoadOptions<Client>): Load {
  const idle = [...options.clients];
  const inFlight = new Set<Promise<void>>();
  const errors: unknown[] = [];
  const began = performance.now();
  let started = 0;
  let missed = 0;

  const tick = () => {
    const due = Math.floor(((performance.now() - began) * options.ratePerSecond) / 1000) - started - missed;
    for (let i = 0; i < due; i += 1) {
      const client = idle.shift();
      if (client === undefined) {
        missed += 1;
        continue;
      }
      const run: Promise<void> = options
        .step(client, started)
        .catch((error: unknown) => void errors.push(error))
        .finally(() => {
          inFlight.delete(run);
          idle.push(client);
        });
      started += 1;
      inFlight.add(run);
    }
  };
  const timer = setInterval(tick, 5);

  return {
    stop: async () => {
      clearInterval(timer);
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
    started: () => started,
    missed: () => missed,
    errors: () => [...errors],
  };
}

/** Counts per operation and verdict, e.g. `login: 120 normal, 3 unavailable`, for messages and logs. */
export function summarize(records: Recorded[]): string {
  const byOp = new Map<string, Map<Verdict, number>>();
  for (const { op, verdict } of records) {
    const counts = byOp.get(op) ?? new Map<Verdict, number>();
    counts.set(verdict, (counts.get(verdict) ?? 0) + 1);
    byOp.set(op, counts);
  }
  return [...byOp]
    .map(([op, counts]) => `${op}: ${[...counts].map(([verdict, n]) => `${n} ${verdict}`).join(', ')}`)
    .join('; ');
}
