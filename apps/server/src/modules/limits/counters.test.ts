import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { type Counters, createMemoryCounters, createRedisCounters } from './counters.ts';

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
});
