import { describe, expect, it } from 'vitest';
import { BATCH_EVERY_MS } from '../modules/limits/counters.ts';
import { newClientAddress, type TestApp, useTestApp } from '../testing/test-app.ts';

// A fresh address per test and run, so counters left in a shared Redis never interfere.

const call = (t: TestApp, remoteAddress: string) =>
  t.app.inject({ method: 'POST', url: '/web/site/conf', remoteAddress, payload: { l: 'zh-cn' } });

const stores = [
  { name: 'in process', env: {} as Record<string, string> },
  ...(process.env.TEST_REDIS_URL
    ? [{ name: 'in Redis', env: { REDIS_URL: process.env.TEST_REDIS_URL } }]
    : []),
];

describe.each(stores)('the per-address call ceiling, counted $name', ({ env }) => {
  const a = useTestApp({ ...env, RATE_LIMIT_PER_MINUTE: '5' });
  const b = useTestApp({ ...env, RATE_LIMIT_PER_MINUTE: '5' });

  it('answers the call past the ceiling with a localized 429 and retry_after', async () => {
    const address = newClientAddress();
    for (let i = 0; i < 5; i++) expect((await call(a, address)).statusCode).toBe(200);
    const refused = await call(a, address);
    expect(refused.statusCode).toBe(429);
    const body = refused.json();
    expect(body.code).toBe(429);
    expect(body.data.reason).toBe('too_many_requests');
    expect(body.data.retry_after).toBeGreaterThan(0);
    expect(body.data.retry_after).toBeLessThanOrEqual(60);
    expect(body.msg).toBe(`请求过于频繁，请在${body.data.retry_after}秒后重试`);
    expect(refused.headers['retry-after']).toBe(String(body.data.retry_after));
    expect((await call(a, newClientAddress())).statusCode).toBe(200);
  });

  it('does not count page and health requests', async () => {
    const address = newClientAddress();
    for (let i = 0; i < 8; i++) {
      expect(
        (await a.app.inject({ method: 'GET', url: '/healthz', remoteAddress: address })).statusCode,
      ).toBe(200);
    }
    expect((await call(a, address)).statusCode).toBe(200);
  });

  it.runIf(Boolean(env.REDIS_URL))(
    'counts across instances that share Redis, within BATCH_EVERY_MS',
    async () => {
      const address = newClientAddress();
      const flushed = () => new Promise((resolve) => setTimeout(resolve, BATCH_EVERY_MS * 3));
      for (let i = 0; i < 3; i++) expect((await call(a, address)).statusCode).toBe(200);
      await flushed();
      for (let i = 0; i < 2; i++) expect((await call(b, address)).statusCode).toBe(200);
      await flushed();
      // b's flush answered the shared count, a's three calls included.
      expect((await call(b, address)).statusCode).toBe(429);
      // a hears of b's calls in the answer to its own next flush.
      await call(a, address);
      await flushed();
      expect((await call(a, address)).statusCode).toBe(429);
    },
  );
});
