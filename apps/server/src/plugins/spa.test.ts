import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../testing/test-app.ts';

const INDEX =
  '<!doctype html><html><head><title>Skyway</title></head><body><div id="root"></div></body></html>';
const SCRIPT = `console.log(${JSON.stringify('x'.repeat(2000))});`;

const ADMIN_INDEX =
  '<!doctype html><html><head><title>Back office</title></head><body><div id="admin"></div></body></html>';

let dist: string;
let adminDist: string;

beforeAll(() => {
  dist = mkdtempSync(path.join(tmpdir(), 'skyway-dist-'));
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(path.join(dist, 'index.html'), INDEX);
  writeFileSync(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(path.join(dist, 'assets', 'index-Ab12Cd34.js'), SCRIPT);
  writeFileSync(path.join(dist, 'assets', 'index-Ab12Cd34.js.br'), brotliCompressSync(SCRIPT));
  writeFileSync(path.join(dist, 'assets', 'index-Ab12Cd34.js.gz'), gzipSync(SCRIPT));
  adminDist = mkdtempSync(path.join(tmpdir(), 'skyway-admin-dist-'));
  mkdirSync(path.join(adminDist, 'assets'));
  writeFileSync(path.join(adminDist, 'index.html'), ADMIN_INDEX);
  writeFileSync(path.join(adminDist, 'assets', 'index-Zz98Yy76.js'), SCRIPT);
});
afterAll(() => {
  rmSync(dist, { recursive: true, force: true });
  rmSync(adminDist, { recursive: true, force: true });
});
const t = useTestApp(() => ({
  WEB_DIST_DIR: dist,
  ADMIN_DIST_DIR: adminDist,
  SIGNATURE_SECRET: 'spa-secret-"<x>',
}));

describe('serving the web app', () => {
  it('answers every page path with index.html, never cached', async () => {
    for (const url of ['/', '/download', '/buy', '/some/unknown/page', '/login?formType=regist']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toContain('<div id="root"></div>');
      expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    }
  });

  it('carries the signing secret as an escaped meta tag', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/download' });
    expect(res.body).toContain('<meta name="signature-secret" content="spa-secret-&quot;&lt;x&gt;"></head>');
  });

  it('compresses index.html and revalidates it by ETag', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/download',
      headers: { 'accept-encoding': 'gzip, br' },
    });
    expect(res.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(res.rawPayload).toString()).toContain('<div id="root"></div>');
    const again = await t.app.inject({
      method: 'GET',
      url: '/download',
      headers: { 'if-none-match': String(res.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
  });

  it('serves hashed assets pre-compressed and cached for a year', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/assets/index-Ab12Cd34.js',
      headers: { 'accept-encoding': 'br' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const gzip = await t.app.inject({
      method: 'GET',
      url: '/assets/index-Ab12Cd34.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    const other = await t.app.inject({ method: 'GET', url: '/favicon.svg' });
    expect(other.headers['cache-control']).toBe('public, max-age=3600');
  });

  it('answers a missing file, an API path and a non-GET page with 404, not the page', async () => {
    const missing = await t.app.inject({ method: 'GET', url: '/assets/gone-123.js' });
    expect(missing.statusCode).toBe(404);
    expect(missing.body).not.toContain('<div id="root">');
    const api = await t.app.inject({ method: 'GET', url: '/web/site/conf' });
    expect(api.json()).toMatchObject({ code: 404 });
    const post = await t.app.inject({ method: 'POST', url: '/download' });
    expect(post.statusCode).toBe(404);
  });

  it('answers every unknown subscription link with the link’s 404, however long, never the page', async () => {
    for (const url of ['/s/' + 'A'.repeat(4000), '/s/' + 'A'.repeat(101), '/s/abc/clash/more', '/s/x%2Fy']) {
      const res = await t.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(res.statusCode, url.slice(0, 40)).toBe(404);
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body).toBe('not found\n');
    }
  });

  it('answers every unknown unsubscribe link with the invalid link’s page, however long', async () => {
    for (const url of ['/unsubscribe/' + 'A'.repeat(4000), '/unsubscribe/a.b/c']) {
      for (const method of ['GET', 'POST'] as const) {
        const res = await t.app.inject({ method, url, headers: { 'accept-language': 'en' } });
        expect(res.statusCode, `${method} ${url.slice(0, 40)}`).toBe(404);
        expect(res.body).toContain('This unsubscribe link is not valid.');
      }
    }
  });

  it('serves index.html itself only through the page path, with the meta tag', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/index.html' });
    expect(res.body).toContain('name="signature-secret"');
  });
});

describe('serving the back office beside the site', () => {
  it('answers its page paths with its own index.html, without the signing secret', async () => {
    for (const url of ['/admin', '/admin/', '/admin/users/123', '/admin/setup/abc?x=1']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toContain('<div id="admin"></div>');
      expect(res.body).not.toContain('signature-secret');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    }
  });

  it('serves its assets under /admin/, and the site never serves the back office', async () => {
    const asset = await t.app.inject({ method: 'GET', url: '/admin/assets/index-Zz98Yy76.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const siteAssetThere = await t.app.inject({ method: 'GET', url: '/admin/assets/index-Ab12Cd34.js' });
    expect(siteAssetThere.statusCode).toBe(404);
    const page = await t.app.inject({ method: 'GET', url: '/buy' });
    expect(page.body).not.toContain('<div id="admin">');
  });

  it('leaves its API to the envelope: an unknown call is a 404 in JSON, not the page', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/admin/api/v1/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 404 });
  });
});
