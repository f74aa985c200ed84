import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type TestApp, useTestApp } from '../testing/test-app.ts';

const probe = (app: TestApp['app']) => {
  app.post(
    '/web/test/ip',
    { config: { auth: 'public' }, schema: { response: { 200: z.object({ ip: z.string() }) } } },
    async (request) => ({ ip: request.ip }),
  );
};

/** The client address the app sees for a request from remoteAddress claiming 203.0.113.9. */
const seenAddress = async (t: TestApp, remoteAddress: string) =>
  (
    await t.app.inject({
      method: 'POST',
      url: '/web/test/ip',
      headers: { 'x-forwarded-for': '203.0.113.9' },
      remoteAddress,
    })
  ).json().ip;

describe('security headers', () => {
  const t = useTestApp({}, { extend: probe });

  it('gives call replies the API set: nothing loads, frames, sniffs or refers', async () => {
    for (const url of ['/web/site/conf', '/web/user/info', '/web/nope']) {
      const res = await t.app.inject({ method: 'POST', url });
      expect(res.headers['content-security-policy'], url).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
      expect(res.headers['strict-transport-security']).toMatch(/^max-age=\d+/);
      expect(res.headers['cross-origin-opener-policy']).toBeUndefined();
    }
  });

  it('gives pages a strict CSP, nosniff, a referrer policy and no framing', async () => {
    for (const url of ['/download', '/healthz', '/favicon-that-is-not-there.ico']) {
      const res = await t.app.inject({ method: 'GET', url });
      const csp = String(res.headers['content-security-policy']);
      for (const directive of [
        "default-src 'self'",
        "script-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "frame-ancestors 'none'",
      ]) {
        expect(csp, url).toContain(directive);
      }
      expect(csp).not.toMatch(/script-src[^;]*unsafe/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
    }
  });

  it('marks every /web/ reply no-store, errors included', async () => {
    for (const url of ['/web/site/conf', '/web/user/info', '/web/nope']) {
      const res = await t.app.inject({ method: 'POST', url });
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });

  it('ignores X-Forwarded-For unless a proxy is trusted', async () => {
    expect(await seenAddress(t, '10.0.0.5')).toBe('10.0.0.5');
  });
});

describe('trusted proxy', () => {
  const t = useTestApp({ TRUST_PROXY: '10.0.0.0/8' }, { extend: probe });

  it('takes the client address from a trusted proxy only', async () => {
    expect(await seenAddress(t, '10.0.0.5')).toBe('203.0.113.9');
    expect(await seenAddress(t, '198.51.100.7')).toBe('198.51.100.7');
  });
});
