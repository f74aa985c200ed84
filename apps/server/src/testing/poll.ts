import { setTimeout as delay } from 'node:timers/promises';

export interface WaitOptions {
  timeoutMs: number;
  intervalMs?: number;
}

/**
 * Polls `probe` until it returns something other than undefined, and returns that with the time it
 * took. On timeout it throws, naming what was awaited and what the last probe saw (or threw).
 */
export async function waitUntil<T>(
  what: string,
  probe: () => Promise<T | undefined> | T | undefined,
  options: WaitOptions,
): Promise<{ value: T; elapsedMs: number }> {
  const started = performance.now();
  const interval = options.intervalMs ?? 100;
  let last: string;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return { value, elapsedMs: performance.now() - started };
      last = 'not yet';
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    if (performance.now() - started >= options.timeoutMs) {
      throw new Error(`${what}: not within ${options.timeoutMs} ms (last probe: ${last})`);
    }
    await delay(interval);
  }
}

/** Waits for a stretch of time that is itself part of a scenario (a load phase, an outage's length). */
export const hold = (ms: number) => delay(ms);
