import { describe, expect, it } from 'vitest';
import { startTestApp } from './testing/test-app.ts';

describe('GET /healthz', () => {
  it('says ok while the database answers, and 503 when it does not', async () => {
    const t = await startTestApp();
    const healthy = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(healthy.statusCode).toBe(200);
    expect(healthy.json()).toEqual({
      status: 'ok',
      database: t.database.kind,
      dependencies: { database: 'ok', redis: 'off', mail: 'off' },
      jobs: { 'inactive-accounts': null, orders: null },
    });

    await t.database.close();
    const broken = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(broken.statusCode).toBe(503);
    expect(broken.json()).toMatchObject({ status: 'unavailable', dependencies: { database: 'down' } });
    await t.app.close();
  });

  it('starts and serves while Redis is unreachable, and says which dependency is degraded', async () => {
    // Nothing listens on port 1: the connection is refused at once.
    const t = await startTestApp({ REDIS_URL: 'redis://127.0.0.1:1' });
    try {
      const health = await t.app.inject({ method: 'GET', url: '/healthz' });
      expect(health.statusCode).toBe(200);
      expect(health.json()).toMatchObject({
        status: 'degraded',
        dependencies: { database: 'ok', redis: 'degraded' },
      });
      const call = await t.app.inject({ method: 'POST', url: '/web/site/conf' });
      expect(call.json().code).toBe(200);
    } finally {
      await t.close();
    }
  });
});
