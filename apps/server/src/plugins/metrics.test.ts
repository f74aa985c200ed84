import { describe, expect, it } from 'vitest';
import { startTestApp, useTestApp } from '../testing/test-app.ts';
import { serveMetricsOnPort } from './metrics.ts';

const TOKEN = 'metrics-token-0123456789';

describe('Prometheus metrics', () => {
  // Redis refused at start: the fallback gauge must say so.
  const t = useTestApp({ METRICS_TOKEN: TOKEN, REDIS_URL: 'redis://127.0.0.1:1' });

  const scrape = (authorization?: string) =>
    t.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });

  it('are refused without the token', async () => {
    expect((await scrape()).statusCode).toBe(401);
    expect((await scrape('Bearer wrong-token-0123456789')).statusCode).toBe(401);
  });

  it('count requests by route pattern and code, and show the dependencies', async () => {
    await t.app.inject({ method: 'POST', url: '/web/site/conf' });
    await t.app.inject({ method: 'POST', url: '/web/user/info' });
    const res = await scrape(`Bearer ${TOKEN}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    const text = res.body;
    expect(text).toMatch(
      /skyway_http_requests_total\{method="POST",route="\/web\/site\/conf",code="200"\} 1/,
    );
    expect(text).toMatch(
      /skyway_http_requests_total\{method="POST",route="\/web\/user\/info",code="401"\} 1/,
    );
    expect(text).toContain('skyway_http_request_duration_seconds_bucket');
    expect(text).toMatch(/^skyway_redis_fallback 1$/m);
    expect(text).toMatch(/^skyway_mail_outbox_pending \d+$/m);
    expect(text).toMatch(/^skyway_mail_outbox_failed \d+$/m);
  });

  it('can be served on a port of their own', async () => {
    const server = await serveMetricsOnPort(t.app.metrics, '127.0.0.1', 0);
    try {
      const { port } = server.address() as { port: number };
      const res = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('skyway_http_requests_total');
      expect((await fetch(`http://127.0.0.1:${port}/other`)).status).toBe(404);
    } finally {
      server.close();
    }
  });
});

describe('without METRICS_TOKEN', () => {
  it('serves no /metrics on the site', async () => {
    const t = await startTestApp();
    try {
      const res = await t.app.inject({ method: 'GET', url: '/metrics' });
      expect(res.statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });
});
