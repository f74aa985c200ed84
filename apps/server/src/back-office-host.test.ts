import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { ADMIN_API_PREFIX } from './admin-api.ts';
import { mailOutbox } from './db/schema/index.ts';
import { type BackOfficeAddress, signedInStaff } from './testing/staff.ts';
import { newClientAddress, useTestApp } from './testing/test-app.ts';

const SITE = 'shop.example';
const BACK_OFFICE = 'admin.example';
const PROXY = '10.0.0.1';
const at: BackOfficeAddress = { host: BACK_OFFICE, cookieName: '__Host-skyway_staff' };

/** Both apps built, as small as can be: a page each, and a file of the back office's. */
function builtApps(root: string) {
  const web = path.join(root, 'web');
  const admin = path.join(root, 'admin');
  mkdirSync(path.join(admin, 'assets'), { recursive: true });
  mkdirSync(web, { recursive: true });
  writeFileSync(path.join(web, 'index.html'), '<html><head></head><body>site</body></html>');
  writeFileSync(path.join(admin, 'index.html'), '<html><head></head><body>back office</body></html>');
  writeFileSync(path.join(admin, 'assets', 'main.js'), 'console.log(1)');
  return { WEB_DIST_DIR: web, ADMIN_DIST_DIR: admin };
}

describe('the back office on an address of its own (ADMIN_PUBLIC_URL)', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'skyway-back-office-host-'));
  const env = {
    ...builtApps(root),
    PUBLIC_URL: `https://${SITE}`,
    ADMIN_PUBLIC_URL: `https://${BACK_OFFICE}`,
    TRUST_PROXY: PROXY,
  };
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const t = useTestApp(env);

  const get = (url: string, headers: Record<string, string> = {}, remoteAddress = newClientAddress()) =>
    t.app.inject({ method: 'GET', url, headers, remoteAddress });

  it('answers a signed-in member’s cookie on the back office’s host alone: a customer page’s script gets 404', async () => {
    const member = await signedInStaff(t.app, t.database, 'owner', at);
    const cookie = `__Host-skyway_staff=${member.cookie}`;
    const mine = await get(`${ADMIN_API_PREFIX}/session`, { host: BACK_OFFICE, cookie });
    expect(mine.statusCode).toBe(200);
    for (const host of [SITE, 'localhost', '203.0.113.9:8080']) {
      const fromSite = await get(`${ADMIN_API_PREFIX}/session`, { host, cookie });
      expect(fromSite.json()).toMatchObject({ code: 404, data: { reason: 'not_found' } });
      const change = await t.app.inject({
        method: 'PATCH',
        url: `${ADMIN_API_PREFIX}/staff/${member.id}`,
        headers: { host, cookie, 'x-csrf-token': member.csrf },
        payload: { role: 'viewer' },
      });
      expect(change.statusCode).toBe(404);
    }
  });

  it('binds the staff cookie to that host: __Host-, Secure, path /, no Domain', async () => {
    const member = await signedInStaff(t.app, t.database, 'viewer', at);
    const signIn = await t.app.inject({
      method: 'POST',
      url: `${ADMIN_API_PREFIX}/session`,
      headers: { host: BACK_OFFICE },
      payload: { email: member.email, password: member.password },
      remoteAddress: newClientAddress(),
    });
    const header = String(signIn.headers['set-cookie']);
    expect(header).toMatch(
      /^__Host-skyway_staff=[\w-]+; Path=\/; Expires=[^;]+; HttpOnly; Secure; SameSite=Strict$/,
    );
  });

  it('serves the back office’s pages and files on its host, and the site on every other', async () => {
    const page = async (host: string, url: string) => {
      const reply = await get(url, { host });
      return [reply.statusCode, reply.statusCode === 302 ? reply.headers.location : reply.body];
    };
    expect(await page(BACK_OFFICE, '/admin/')).toEqual([200, expect.stringContaining('back office')]);
    expect(await page(BACK_OFFICE, '/admin/assets/main.js')).toEqual([200, 'console.log(1)']);
    expect(await page(BACK_OFFICE, '/')).toEqual([302, '/admin/']);
    expect(await page(SITE, '/')).toEqual([200, expect.stringContaining('site')]);
    for (const url of ['/admin/', '/admin/assets/main.js', '/admin/staff']) {
      expect((await get(url, { host: SITE })).statusCode).toBe(404);
    }
    // Nothing of the customer site on the back office's origin: a flaw in one never opens the other.
    expect((await get('/buy', { host: BACK_OFFICE })).statusCode).toBe(404);
    const siteCall = (host: string) =>
      t.app.inject({ method: 'POST', url: '/web/site/conf', headers: { host }, payload: {} });
    expect((await siteCall(SITE)).statusCode).toBe(200);
    expect((await siteCall(BACK_OFFICE)).statusCode).toBe(404);
    expect((await get('/healthz', { host: BACK_OFFICE })).statusCode).toBe(200);
  });

  it('mails set-up links on the back office’s address, whatever host the invitation came through', async () => {
    const owner = await signedInStaff(t.app, t.database, 'owner', at);
    const email = `invited-${Date.now()}@example.com`;
    const invited = await t.app.inject({
      method: 'POST',
      url: `${ADMIN_API_PREFIX}/staff`,
      headers: {
        host: `${BACK_OFFICE}:443`,
        cookie: `__Host-skyway_staff=${owner.cookie}`,
        'x-csrf-token': owner.csrf,
      },
      payload: { email, role: 'support' },
      remoteAddress: newClientAddress(),
    });
    expect(invited.statusCode).toBe(200);
    const [mail] = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, email));
    expect(mail?.text).toMatch(new RegExp(`https://${BACK_OFFICE}/admin/setup/[\\w-]{43}`));
    expect(mail?.text).not.toContain(SITE);
  });

  it('takes the host a trusted proxy forwarded (TRUST_PROXY), and only then', async () => {
    const forwarded = { host: '10.0.0.5:8080', 'x-forwarded-host': BACK_OFFICE };
    const proxied = await get(`${ADMIN_API_PREFIX}/session`, forwarded, PROXY);
    // Not signed in, but the back office answered.
    expect(proxied.json()).toMatchObject({ code: 401, data: { reason: 'not_signed_in' } });
    // Any other client sets X-Forwarded-Host in vain: its Host header counts.
    const direct = await get(`${ADMIN_API_PREFIX}/session`, forwarded);
    expect(direct.json()).toMatchObject({ code: 404, data: { reason: 'not_found' } });
  });
});
