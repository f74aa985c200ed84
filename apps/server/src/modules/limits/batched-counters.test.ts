import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { connectRedis } from '../../redis.ts';
import { startRedisProxy } from '../../testing/tcp-proxy.ts';
import { createBatchedCounters } from './batched-counters.ts';

const redisUrl = process.env.TEST_REDIS_URL;
const redis = redisUrl ? new Redis(redisUrl) : undefined;
afterAll(() => redis?.quit());

const silent = pino({ level: 'silent' });
const PREFIX = 'test:batched:';
/** Long enough that no test waits for the timer: each flushes when it wants the shared count. */
const NEVER_MS = 60_000;

function instance(client: Redis, flushes: unknown[] = [], now?: () => number) {
  return createBatchedCounters({
    redis: client,
    prefix: PREFIX,
    flushEveryMs: NEVER_MS,
    flushed: (error) => void flushes.push(error),
    now,
  });
}

describe.runIf(Boolean(redisUrl))('batched counters', () => {
  it('count at once, and each instance hears the others when it flushes', async () => {
    const a = instance(redis as Redis);
    const b = instance(redis as Redis);
    const key = randomUUID();
    expect(a.hit(key, 60)).toEqual({ count: 1, resetIn: 60 });
    expect(a.hit(key, 60).count).toBe(2);
    expect(b.hit(key, 60).count).toBe(1);
    await a.flush();
    await b.flush();
    // b's flush answered the total, a's two hits included.
    expect(b.hit(key, 60).count).toBe(4);
    expect(a.hit(key, 60).count).toBe(3);
    await a.flush();
    expect(a.hit(key, 60).count).toBe(5);
    await Promise.all([a.flush(), b.flush()]);
    expect(await redis?.get(PREFIX + key)).toBe('6');
    const ttl = (await redis?.pttl(PREFIX + key)) as number;
    expect(ttl).toBeGreaterThan(58_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  it('send a key once a flush, however many hits it had', async () => {
    const monitor = (redis as Redis).duplicate();
    const evals: string[] = [];
    await monitor.monitor().then((feed) => feed.on('monitor', (_time, args) => evals.push(String(args[0]))));
    const counters = instance(redis as Redis);
    const key = randomUUID();
    for (let i = 0; i < 100; i++) counters.hit(key, 60);
    await counters.flush();
    await counters.flush();
    await new Promise((resolve) => setTimeout(resolve, 100));
    monitor.disconnect();
    expect(evals.filter((command) => command.toLowerCase() === 'eval')).toHaveLength(1);
    expect(await redis?.get(PREFIX + key)).toBe('100');
  });

  it('keep counting while Redis is away and send those hits once it is back', async () => {
    const proxy = await startRedisProxy(redisUrl as string, 'pass');
    const client = (await connectRedis(proxy.url, silent)) as Redis;
    const flushes: unknown[] = [];
    const counters = instance(client, flushes);
    const key = randomUUID();
    await proxy.refuse();
    for (let i = 1; i <= 3; i++) expect(counters.hit(key, 60).count).toBe(i);
    await counters.flush();
    expect(flushes.at(-1)).toBeInstanceOf(Error);
    expect(counters.hit(key, 60).count).toBe(4);
    await proxy.pass();
    await waitForReady(client);
    await counters.flush();
    expect(flushes.at(-1)).toBeUndefined();
    expect(await redis?.get(PREFIX + key)).toBe('4');
    client.disconnect();
    await proxy.close();
  });

  it('start a new window when the last one ended, leaving its unsent hits behind', async () => {
    let now = Date.now();
    const proxy = await startRedisProxy(redisUrl as string, 'refuse');
    const client = (await connectRedis(proxy.url, silent)) as Redis;
    const counters = instance(client, [], () => now);
    const key = randomUUID();
    counters.hit(key, 1);
    counters.hit(key, 1);
    await counters.flush();
    now += 1_000;
    expect(counters.hit(key, 1)).toEqual({ count: 1, resetIn: 1 });
    await proxy.pass();
    await waitForReady(client);
    await counters.flush();
    expect(await redis?.get(PREFIX + key)).toBe('1');
    client.disconnect();
    await proxy.close();
  });
});

async function waitForReady(client: Redis): Promise<void> {
  for (let i = 0; i < 100 && client.status !== 'ready'; i++) await new Promise((r) => setTimeout(r, 100));
  expect(client.status).toBe('ready');
}
