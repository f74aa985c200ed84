import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { connectRedis } from '../../redis.ts';
import { startRedisProxy } from '../../testing/tcp-proxy.ts';
import {
  BATCH_EVERY_MS,
  type Counters,
  createLimitCounters,
  createMemoryCounters,
  createRedisCounters,
} from './counters.ts';

const redisUrl = process.env.TEST_REDIS_URL;
const redis = redisUrl ? new Redis(redisUrl) : undefined;
afterAll(() => redis?.quit());

const stores: { name: string; counters: () => Counters }[] = [
  { name: 'in process', counters: () => createMemoryCounters() },
  ...(redis ? [{ name: 'in Redis', counters: () => createRedisCounters(redis) }] : []),
];

describe.each(stores)('counters $name', ({ counters }) => {
  it('counts hits in a window and says when it ends', async () => {
    const store = counters();
    const key = randomUUID();
    expect(await store.hit(key, 60)).toEqual({ count: 1, resetIn: 60 });
    const second = await store.hit(key, 60);
    expect(second.count).toBe(2);
    expect(second.resetIn).toBeGreaterThan(58);
    await store.clear(key);
    expect((await store.hit(key, 60)).count).toBe(1);
  });

  it('counts concurrent hits exactly', async () => {
    const store = counters();
    const key = randomUUID();
    const results = await Promise.all(Array.from({ length: 25 }, () => store.hit(key, 60)));
    expect(results.map((r) => r.count).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 25 }, (_, i) => i + 1),
    );
  });
});

describe('in-process counters', () => {
  it('start again when the window has passed', async () => {
    let now = 1_000_000;
    const store = createMemoryCounters(() => now);
    await store.hit('k', 60);
    await store.hit('k', 60);
    now += 60_000;
    expect(await store.hit('k', 60)).toEqual({ count: 1, resetIn: 60 });
  });

  it('keep every open window’s count among many (a subscription link’s hour each)', () => {
    let now = 1_000_000;
    const store = createMemoryCounters(() => now);
    const links = Array.from({ length: 30_000 }, (_, i) => `subscription:${i}`);
    for (const key of links) store.hitSoon(key, 3600);
    // Short windows, ended by the time of the next sweep: swept, and counted again from one.
    for (let i = 0; i < 30_000; i++) store.hitSoon(`ceiling:${i}`, 1);
    now += 2_000;
    for (let i = 0; i < 30_000; i++) store.hitSoon(`other:${i}`, 60);
    expect(links.every((key) => store.hitSoon(key, 3600).count === 2)).toBe(true);
    expect(store.hitSoon('ceiling:7', 1)).toEqual({ count: 1, resetIn: 1 });
  });
});

/** A logger whose lines the test can read. */
function recordingLog() {
  const lines: { level: number; msg: string }[] = [];
  const log = pino({ level: 'debug' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { log, warnings: () => lines.filter((line) => line.level === 40).map((line) => line.msg) };
}

describe('limit counters when Redis fails', () => {
  it('count in process without Redis, and say so', async () => {
    const counters = createLimitCounters(undefined, recordingLog().log);
    expect(counters.state()).toBe('off');
    expect((await counters.hit(randomUUID(), 60)).count).toBe(1);
  });

  it('start while Redis refuses connections, count in process, and warn once', async () => {
    const { log, warnings } = recordingLog();
    const started = Date.now();
    const redis = await connectRedis('redis://127.0.0.1:1', log);
    expect(Date.now() - started).toBeLessThan(1500);
    const counters = createLimitCounters(redis, log);
    const key = randomUUID();
    for (let i = 1; i <= 5; i++) expect((await counters.hit(key, 60)).count).toBe(i);
    expect(counters.state()).toBe('degraded');
    expect(warnings().filter((msg) => msg.startsWith('redis is unavailable'))).toHaveLength(1);
    redis?.disconnect();
  });

  it('count the call ceiling in process while Redis refuses, and say so once a flush fails', async () => {
    const { log, warnings } = recordingLog();
    const redis = await connectRedis('redis://127.0.0.1:1', log);
    const counters = createLimitCounters(redis, log);
    const key = randomUUID();
    for (let i = 1; i <= 5; i++) expect(counters.hitSoon(key, 60).count).toBe(i);
    await vi.waitFor(() => expect(warnings()).toHaveLength(1), { timeout: 2_000, interval: 50 });
    expect(counters.state()).toBe('degraded');
    expect(counters.hitSoon(key, 60).count).toBe(6);
    redis?.disconnect();
  });

  it.runIf(Boolean(redisUrl))('answer within a second when Redis accepts but never replies', async () => {
    const hole = await startRedisProxy(redisUrl as string, 'blackhole');
    const { log, warnings } = recordingLog();
    const redis = await connectRedis(hole.url, log);
    const counters = createLimitCounters(redis, log);
    const key = randomUUID();
    for (let i = 1; i <= 3; i++) {
      const started = Date.now();
      expect((await counters.hit(key, 60)).count).toBe(i);
      expect(Date.now() - started).toBeLessThan(1000);
    }
    expect(counters.state()).toBe('degraded');
    expect(warnings().filter((msg) => msg.startsWith('redis is unavailable'))).toHaveLength(1);
    redis?.disconnect();
    await hole.close();
  });

  it.runIf(Boolean(redisUrl))('go back to Redis by themselves when it becomes reachable', async () => {
    const proxy = await startRedisProxy(redisUrl as string, 'refuse');
    const { log, warnings } = recordingLog();
    const redis = await connectRedis(proxy.url, log);
    const counters = createLimitCounters(redis, log);
    expect(counters.state()).toBe('degraded');
    await proxy.pass();
    await vi.waitFor(() => expect(counters.state()).toBe('ok'), { timeout: 10_000, interval: 200 });
    const key = randomUUID();
    await counters.hit(key, 60);
    expect((await createRedisCounters(redis as Redis).hit(key, 60)).count).toBe(2);
    expect(warnings()).toHaveLength(1);
    redis?.disconnect();
    await proxy.close();
  });

  it.runIf(Boolean(redisUrl))('share the counts again once Redis answers', async () => {
    const { log } = recordingLog();
    const redis = await connectRedis(redisUrl, log);
    const counters = createLimitCounters(redis, log);
    expect(counters.state()).toBe('ok');
    const key = randomUUID();
    expect((await counters.hit(key, 60)).count).toBe(1);
    // Another instance, sharing the same Redis, sees the count.
    expect((await createRedisCounters(redis as Redis).hit(key, 60)).count).toBe(2);
    redis?.disconnect();
  });

  it.runIf(Boolean(redisUrl))(
    'share the call ceiling with other instances within BATCH_EVERY_MS',
    async () => {
      const { log } = recordingLog();
      const redis = await connectRedis(redisUrl, log);
      const counters = createLimitCounters(redis, log);
      const key = randomUUID();
      for (let i = 1; i <= 3; i++) expect(counters.hitSoon(key, 60).count).toBe(i);
      await new Promise((resolve) => setTimeout(resolve, BATCH_EVERY_MS * 3));
      expect((await createRedisCounters(redis as Redis).hit(key, 60)).count).toBe(4);
      expect(counters.state()).toBe('ok');
      redis?.disconnect();
    },
  );
});
