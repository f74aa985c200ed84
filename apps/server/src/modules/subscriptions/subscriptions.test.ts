import { asc, eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { deviceSlots, subscriptionFetches } from '../../db/schema/index.ts';
import { type SignedInStaff, signedInStaff } from '../../testing/staff.ts';
import { newClientAddress, signedInUser, useTestApp, webCaller } from '../../testing/test-app.ts';
import { inAccountTransaction } from '../access/access.ts';
import { ENDPOINTS_TTL_MS } from '../nodes/endpoints.ts';
import { FETCHES_PER_HOUR } from './routes.ts';

const REALITY_KEY = 'Z84J2IelR9ch3k8VtlVhhs5ycBUlXA7wHBWcBrjqnAw';

describe('subscription links', () => {
  const t = useTestApp();
  let admin: SignedInStaff;
  let hkId: string;
  let ssInboundId: string;
  const web = webCaller(
    () => t.app,
    () => newClientAddress(),
  );

  beforeAll(async () => {
    admin = await signedInStaff(t.app, t.database, 'admin');
    const hk = (
      await admin.call('POST', '/nodes', { name: 'Hong Kong 1', region: 'HK', host: 'hk1.example.com' })
    ).json().data;
    hkId = hk.id;
    await admin.call('POST', `/nodes/${hk.id}/inbounds`, {
      protocol: 'vless',
      port: 443,
      transport: 'tcp',
      security: 'reality',
      server_name: 'www.microsoft.com',
      flow: 'xtls-rprx-vision',
      reality_public_key: REALITY_KEY,
      reality_short_id: 'ab12',
    });
    ssInboundId = (
      await admin.call('POST', `/nodes/${hk.id}/inbounds`, {
        protocol: 'shadowsocks',
        port: 8388,
        transport: 'tcp',
        security: 'none',
        method: '2022-blake3-aes-256-gcm',
      })
    ).json().data.id;
    // Only for customers with 3 connections or more.
    const premium = (
      await admin.call('POST', '/nodes', {
        name: 'Premium',
        region: 'JP',
        host: 'jp9.example.com',
        min_connections: 3,
      })
    ).json().data;
    await admin.call('POST', `/nodes/${premium.id}/inbounds`, {
      protocol: 'vmess',
      port: 80,
      transport: 'tcp',
      security: 'none',
    });
  });

  async function device(connections = 2) {
    const { user, token } = await signedInUser(t.database);
    await inAccountTransaction(t.database.db, user.id, new Date(), (account) =>
      account.purchase({ id: `order-${user.id}`, days: 31, connections }),
    );
    const devices = (await web('/web/device/list', {}, token)).json().data.devices as {
      id: string;
      url: string;
    }[];
    const path = new URL(devices[0]?.url ?? '').pathname;
    const [slot] = await t.database.db
      .select()
      .from(deviceSlots)
      .where(eq(deviceSlots.id, devices[0]?.id ?? ''));
    return { user, token, path, slot, id: devices[0]?.id ?? '' };
  }
  const fetchAs = (path: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url: path, headers, remoteAddress: newClientAddress() });

  it('serves mihomo its YAML with this slot’s credential, and the headers the apps read', async () => {
    const { user, path, slot } = await device();
    const reply = await fetchAs(path, { 'user-agent': 'mihomo/1.19.0' });
    expect(reply.statusCode).toBe(200);
    expect(reply.headers['content-type']).toBe('text/yaml; charset=utf-8');
    const config = parse(reply.body) as { proxies: { name: string; uuid?: string; password?: string }[] };
    expect(config.proxies.map((proxy) => proxy.name)).toEqual([
      'Hong Kong 1 VLESS 443',
      'Hong Kong 1 SHADOWSOCKS 8388',
    ]);
    expect(config.proxies[0]?.uuid).toBe(slot?.credential);
    const expire = Math.floor((user.expireAt?.getTime() ?? 0) / 1000);
    // Fetches are logged in batches: written within a second, or now.
    await t.app.subscriptionFetches.flush();
    const [row] = await t.database.db
      .select()
      .from(deviceSlots)
      .where(eq(deviceSlots.id, slot?.id ?? ''));
    expect(row?.lastFetchAt).not.toBeNull();
    expect(reply.headers['subscription-userinfo']).toMatch(/^upload=0; download=0; total=0; expire=\d+$/);
    expect(Number(/expire=(\d+)/.exec(String(reply.headers['subscription-userinfo']))?.[1])).toBeGreaterThan(
      expire,
    );
    expect(reply.headers['profile-update-interval']).toBe('12');
    expect(reply.headers['content-disposition']).toBe("attachment; filename*=UTF-8''Skyway.yaml");
    expect(reply.headers['profile-title']).toBe(`base64:${Buffer.from('Skyway').toString('base64')}`);
    expect(reply.headers['profile-web-page-url']).toMatch(/\/devices$/);
  });

  it('serves each format by its path, and by the User-Agent of the app', async () => {
    const { path, slot } = await device();
    expect(
      JSON.parse((await fetchAs(`${path}/sing-box`)).body).outbounds.some(
        (o: { uuid?: string }) => o.uuid === slot?.credential,
      ),
    ).toBe(true);
    expect(JSON.parse((await fetchAs(path, { 'user-agent': 'SFA/1.10.0' })).body)).toHaveProperty(
      'outbounds',
    );
    const links = Buffer.from((await fetchAs(`${path}/base64`)).body, 'base64')
      .toString('utf8')
      .split('\n');
    expect(links.map((link) => link.split(':')[0])).toEqual(['vless', 'ss']);
    expect(links[0]).toContain(slot?.credential);
    expect(
      Buffer.from((await fetchAs(path, { 'user-agent': 'v2rayNG/1.9.30' })).body, 'base64').toString(),
    ).toContain('vless://');
    expect(JSON.parse((await fetchAs(`${path}/sip008`)).body).servers).toHaveLength(1);
    expect((await fetchAs(`${path}/surge`)).statusCode).toBe(404);
  });

  it('hides the nodes the plan may not use', async () => {
    const small = await device(2);
    const big = await device(3);
    const names = async (path: string) =>
      (parse((await fetchAs(`${path}/clash`)).body) as { proxies: { name: string }[] }).proxies.map(
        (p) => p.name,
      );
    expect(await names(small.path)).not.toContain('Premium');
    expect(await names(big.path)).toContain('Premium');
  });

  it('gives a browser a page with the QR code and the import links', async () => {
    const { path } = await device();
    const reply = await fetchAs(path, { accept: 'text/html,application/xhtml+xml' });
    expect(reply.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(reply.body).toContain('src="data:image/png;base64,');
    expect(reply.body).toContain(
      `clash://install-config?url=${encodeURIComponent(`http://localhost:80${path}/clash`)}`,
    );
    expect(reply.body).toContain('sing-box://import-remote-profile?url=');
    expect(reply.headers['content-security-policy']).toContain("script-src 'self'");
  });

  it('tells the app why when the slot serves nothing, in the customer’s language', async () => {
    const { user, path } = await device();
    const support = await signedInStaff(t.app, t.database, 'support');
    await support.call('PATCH', `/users/${user.id}`, { disabled: true, reason: 'fraud' });
    const config = parse((await fetchAs(`${path}/clash`)).body) as {
      proxies: { name: string; server: string }[];
    };
    expect(config.proxies).toEqual([
      expect.objectContaining({ name: 'Account disabled: contact support', server: '127.0.0.1' }),
    ]);
    const page = await fetchAs(path, { accept: 'text/html' });
    expect(page.body).toContain('data-state="disabled"');
  });

  it('never serves another token: unknown, malformed or regenerated links are not found', async () => {
    const { token, path, id } = await device();
    expect((await fetchAs('/s/' + 'A'.repeat(43))).statusCode).toBe(404);
    expect((await fetchAs('/s/short')).statusCode).toBe(404);
    expect((await fetchAs(`${path}x`)).statusCode).toBe(404);
    const fresh = (await web('/web/device/regenerate', { id }, token)).json().data.url as string;
    expect((await fetchAs(path)).statusCode).toBe(404);
    expect((await fetchAs(new URL(fresh).pathname)).statusCode).toBe(200);
  });

  it('logs every fetch, and slows a link fetched too often down with 429', async () => {
    const { path, slot } = await device();
    for (let i = 0; i < FETCHES_PER_HOUR; i++)
      expect((await fetchAs(path, { 'user-agent': 'clash-verge/v2' })).statusCode).toBe(200);
    const refused = await fetchAs(path);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    await t.app.subscriptionFetches.flush();
    const logged = await t.database.db
      .select()
      .from(subscriptionFetches)
      .where(eq(subscriptionFetches.slotId, slot?.id ?? ''));
    expect(logged).toHaveLength(FETCHES_PER_HOUR);
    expect(logged[0]).toMatchObject({ userAgent: 'clash-verge/v2', format: 'clash' });
  });
  it('logs fetches in batches: every one, with each slot’s latest as its last fetch', async () => {
    const first = await device();
    const second = await device();
    const sent: string[] = [];
    for (let i = 0; i < 5; i++) sent.push((await fetchAs(first.path, { 'user-agent': `mihomo/${i}` })).body);
    for (let i = 0; i < 3; i++) sent.push((await fetchAs(`${second.path}/base64`)).body);
    expect(sent).toHaveLength(8);
    await t.app.subscriptionFetches.flush();
    expect(t.app.subscriptionFetches.pending()).toBe(0);
    const logged = await t.database.db
      .select()
      .from(subscriptionFetches)
      .where(inArray(subscriptionFetches.slotId, [first.id, second.id]))
      .orderBy(asc(subscriptionFetches.id));
    // In the order they were served.
    expect(logged.filter((row) => row.slotId === first.id).map((row) => row.userAgent)).toEqual([
      'mihomo/0',
      'mihomo/1',
      'mihomo/2',
      'mihomo/3',
      'mihomo/4',
    ]);
    expect(logged.filter((row) => row.slotId === second.id).map((row) => row.format)).toEqual([
      'base64',
      'base64',
      'base64',
    ]);
    const slots = await t.database.db
      .select()
      .from(deviceSlots)
      .where(inArray(deviceSlots.id, [first.id, second.id]));
    for (const slot of slots) {
      const latest = Math.max(
        ...logged.filter((row) => row.slotId === slot.id).map((row) => row.at.getTime()),
      );
      expect(slot.lastFetchAt?.getTime()).toBe(latest);
    }
  });

  it('serves a node’s change in the back office from the next fetch, though the list is kept', async () => {
    const { path } = await device();
    const names = async () =>
      (parse((await fetchAs(`${path}/clash`)).body) as { proxies: { name: string }[] }).proxies.map(
        (p) => p.name,
      );
    expect(await names()).toEqual(['Hong Kong 1 VLESS 443', 'Hong Kong 1 SHADOWSOCKS 8388']);
    // Well within the time the list is kept: only the back office's change makes it read again.
    expect(ENDPOINTS_TTL_MS).toBeGreaterThanOrEqual(1_000);
    expect((await admin.call('PATCH', `/nodes/${hkId}`, { enabled: false })).statusCode).toBe(200);
    const gone = parse((await fetchAs(`${path}/clash`)).body) as { proxies: { name: string }[] };
    expect(gone.proxies.map((p) => p.name)).toEqual(['No servers yet: try again soon']);
    expect((await admin.call('PATCH', `/nodes/${hkId}`, { enabled: true })).statusCode).toBe(200);
    expect(await names()).toEqual(['Hong Kong 1 VLESS 443', 'Hong Kong 1 SHADOWSOCKS 8388']);
    // An inbound turned off and on again, likewise.
    const inbound = {
      protocol: 'shadowsocks',
      port: 8388,
      transport: 'tcp',
      security: 'none',
      method: '2022-blake3-aes-256-gcm',
    };
    await admin.call('PATCH', `/inbounds/${ssInboundId}`, { ...inbound, enabled: false });
    expect(await names()).toEqual(['Hong Kong 1']);
    await admin.call('PATCH', `/inbounds/${ssInboundId}`, { ...inbound, enabled: true });
    expect(await names()).toEqual(['Hong Kong 1 VLESS 443', 'Hong Kong 1 SHADOWSOCKS 8388']);
  });
});
