import type { FastifyInstance } from 'fastify';
import type { FinishedRun } from '../modules/operations/job-runs-repository.ts';

export interface ScheduleOptions {
  /** Wait before the first run, so that start-up (migrations, listening) is not slowed down. */
  firstRunAfterMs?: number;
  /** Told when a run ends: when it started and ended, and what it did or why it failed. */
  onFinished?: (run: FinishedRun) => void | Promise<void>;
  /** The level of the line logged for each successful run (failures are always errors). */
  finishedLogLevel?: 'info' | 'debug';
}

const DEFAULT_FIRST_RUN_AFTER_MS = 10_000;

/**
 * Runs `run` every `everyMs` on this instance. Jobs must be safe when several instances run them at
 * once (they lock in the database); here a run is only kept from overlapping its own previous run.
 * The timers are unref'd so they never keep the process alive, and app.close() stops them and waits
 * for a run in progress, so it does not lose its database mid-way. Call it before the app is ready
 * (it adds an onClose hook).
 */
export function scheduleJob(
  app: FastifyInstance,
  name: string,
  everyMs: number,
  run: (now: Date) => Promise<unknown>,
  options: ScheduleOptions = {},
): void {
  let current: Promise<void> | undefined;
  let stopped = false;
  const log = app.log.child({ job: name });

  async function runOnce(): Promise<void> {
    const startedAt = new Date();
    let outcome: Pick<FinishedRun, 'succeeded' | 'result' | 'error'>;
    try {
      const result = await run(startedAt);
      log[options.finishedLogLevel ?? 'info']({ result }, 'job finished');
      outcome = { succeeded: true, result };
    } catch (error) {
      log.error({ err: error }, 'job failed');
      outcome = { succeeded: false, error: error instanceof Error ? error.message : String(error) };
    }
    await options.onFinished?.({ name, startedAt, finishedAt: new Date(), ...outcome });
  }

  function tick(): void {
    if (stopped || current) return;
    current = runOnce().finally(() => {
      current = undefined;
    });
  }

  const first = setTimeout(tick, options.firstRunAfterMs ?? Math.min(DEFAULT_FIRST_RUN_AFTER_MS, everyMs));
  const interval = setInterval(tick, everyMs);
  first.unref();
  interval.unref();

  app.addHook('onClose', async () => {
    stopped = true;
    clearTimeout(first);
    clearInterval(interval);
    await current;
  });
}
