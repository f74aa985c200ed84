import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { scheduleJob } from './scheduler.ts';

let app: FastifyInstance | undefined;

// Only the clock the scheduler reads: Fastify's start and close run on the real event loop.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
});

afterEach(async () => {
  // A run may be sleeping on the fake clock and closing waits for it, so the clock moves on until the
  // app has closed. (Running "all timers" instead never ends while an interval is due every few ms.)
  if (app) {
    let closed = false;
    const closing = app.close().finally(() => {
      closed = true;
    });
    while (!closed) await vi.advanceTimersByTimeAsync(10);
    await closing;
  }
  app = undefined;
  vi.useRealTimers();
});

async function newApp(): Promise<FastifyInstance> {
  app = Fastify({ logger: false });
  return app;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('scheduleJob', () => {
  it('runs after the first delay and then on every interval, with the current time', async () => {
    const server = await newApp();
    const start = Date.now();
    const times: number[] = [];
    scheduleJob(server, 'tick', 30, async (now) => void times.push(now.getTime() - start), {
      firstRunAfterMs: 5,
    });
    await server.ready();
    await vi.advanceTimersByTimeAsync(4);
    expect(times).toEqual([]);
    await vi.advanceTimersByTimeAsync(56);
    expect(times).toEqual([5, 30, 60]);
  });

  it('never overlaps a run still in progress', async () => {
    const server = await newApp();
    let running = 0;
    let most = 0;
    let runs = 0;
    scheduleJob(
      server,
      'slow',
      5,
      async () => {
        running += 1;
        most = Math.max(most, running);
        await sleep(40);
        running -= 1;
        runs += 1;
      },
      { firstRunAfterMs: 1 },
    );
    await server.ready();
    await vi.advanceTimersByTimeAsync(200);
    expect(runs).toBeGreaterThanOrEqual(3);
    expect(most).toBe(1);
  });

  it('logs a failed run and keeps going', async () => {
    const server = await newApp();
    const child = server.log.child({});
    vi.spyOn(server.log, 'child').mockReturnValue(child);
    const error = vi.spyOn(child, 'error');
    let calls = 0;
    scheduleJob(
      server,
      'flaky',
      10,
      async () => {
        calls += 1;
        throw new Error('boom');
      },
      { firstRunAfterMs: 1 },
    );
    await vi.advanceTimersByTimeAsync(10);
    expect(calls).toBe(2);
    expect(error).toHaveBeenCalledWith({ err: expect.objectContaining({ message: 'boom' }) }, 'job failed');
  });

  it('stops on close, after waiting for the run in progress', async () => {
    const server = await newApp();
    let started = 0;
    let finished = 0;
    scheduleJob(
      server,
      'closing',
      10,
      async () => {
        started += 1;
        await sleep(50);
        finished += 1;
      },
      { firstRunAfterMs: 1 },
    );
    await server.ready();
    await vi.advanceTimersByTimeAsync(1);
    expect(started).toBe(1);
    let closed = false;
    const closing = server.close().then(() => (closed = true));
    app = undefined;
    await vi.advanceTimersByTimeAsync(49);
    expect(closed).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await closing;
    expect(finished).toBe(1);
    await vi.advanceTimersByTimeAsync(50);
    expect(started).toBe(1);
  });

  it('tells the operator how each run ended', async () => {
    const server = await newApp();
    const outcomes: boolean[] = [];
    let runs = 0;
    scheduleJob(
      server,
      'flaky',
      10,
      async () => {
        runs += 1;
        if (runs === 2) throw new Error('the database went away');
      },
      { firstRunAfterMs: 1, onFinished: (run) => void outcomes.push(run.succeeded) },
    );
    await server.ready();
    await vi.advanceTimersByTimeAsync(20);
    expect(outcomes).toEqual([true, false, true]);
  });
});
