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
      jobs: { 'inactive-accounts': null, orders: null },
    });

    await t.database.close();
    const broken = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(broken.statusCode).toBe(503);
    expect(broken.json().status).toBe('unavailable');
    await t.app.close();
  });
});
