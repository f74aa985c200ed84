import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  clashDocument,
  clashSubscription,
  type Credential,
  FORMATS,
  formatForUserAgent,
  render,
  shareLink,
  ssPassword,
} from './formats.ts';
import type { Endpoint } from '../nodes/endpoints.ts';

const CREDENTIAL: Credential = {
  uuid: 'b831381d-6324-4d53-ad4f-8cda48b30811',
  secret: Buffer.alloc(32, 7).toString('base64'),
};
const base = {
  path: null,
  serverName: null,
  flow: null,
  realityPublicKey: null,
  realityShortId: null,
  method: null,
  serverKey: null,
} as const;
const ENDPOINTS: Endpoint[] = [
  {
    ...base,
    name: 'Hong Kong 1 REALITY',
    host: 'hk1.example.com',
    protocol: 'vless',
    port: 443,
    transport: 'tcp',
    security: 'reality',
    serverName: 'www.microsoft.com',
    flow: 'xtls-rprx-vision',
    realityPublicKey: 'Z84J2IelR9ch3k8VtlVhhs5ycBUlXA7wHBWcBrjqnAw',
    realityShortId: '6ba85179e30d4fc2',
  },
  {
    ...base,
    name: 'Tokyo 1 VMess',
    host: 'jp1.example.com',
    protocol: 'vmess',
    port: 8080,
    transport: 'ws',
    path: '/ray',
    security: 'tls',
    serverName: 'jp1.example.com',
  },
  {
    ...base,
    name: 'Tokyo 1 Trojan',
    host: 'jp1.example.com',
    protocol: 'trojan',
    port: 8443,
    transport: 'grpc',
    path: 'skyway',
    security: 'tls',
    serverName: 'jp1.example.com',
  },
  {
    ...base,
    name: '新加坡 1 SS',
    host: '203.0.113.7',
    protocol: 'shadowsocks',
    port: 8388,
    transport: 'tcp',
    security: 'none',
    method: '2022-blake3-aes-128-gcm',
    serverKey: Buffer.alloc(16, 1).toString('base64'),
  },
];
const TITLE = 'Skyway';

describe('subscription formats', () => {
  it('matches the expected files of every format', async () => {
    for (const format of FORMATS) {
      await expect(render(format, ENDPOINTS, CREDENTIAL, TITLE)).toMatchFileSnapshot(
        `fixtures/all-protocols.${format}`,
      );
    }
  });

  it('gives share links that parse back to the same fields', () => {
    const [vless, vmess, trojan, ss] = ENDPOINTS.map((endpoint) => shareLink(endpoint, CREDENTIAL)) as [
      string,
      string,
      string,
      string,
    ];
    const v = new URL(vless);
    expect([v.protocol, v.username, v.hostname, v.port, decodeURIComponent(v.hash.slice(1))]).toEqual([
      'vless:',
      CREDENTIAL.uuid,
      'hk1.example.com',
      '443',
      'Hong Kong 1 REALITY',
    ]);
    expect(Object.fromEntries(v.searchParams)).toEqual({
      encryption: 'none',
      security: 'reality',
      sni: 'www.microsoft.com',
      fp: 'chrome',
      pbk: 'Z84J2IelR9ch3k8VtlVhhs5ycBUlXA7wHBWcBrjqnAw',
      sid: '6ba85179e30d4fc2',
      type: 'tcp',
      flow: 'xtls-rprx-vision',
    });
    const m = JSON.parse(Buffer.from(vmess.slice('vmess://'.length), 'base64').toString('utf8'));
    expect(m).toMatchObject({
      v: '2',
      add: 'jp1.example.com',
      port: '8080',
      id: CREDENTIAL.uuid,
      aid: '0',
      net: 'ws',
      path: '/ray',
      tls: 'tls',
      sni: 'jp1.example.com',
    });
    const t = new URL(trojan);
    expect([t.protocol, decodeURIComponent(t.username), t.port]).toEqual([
      'trojan:',
      CREDENTIAL.secret,
      '8443',
    ]);
    expect(Object.fromEntries(t.searchParams)).toMatchObject({
      security: 'tls',
      sni: 'jp1.example.com',
      type: 'grpc',
      serviceName: 'skyway',
    });
    const s = new URL(ss);
    const [method, ...password] = decodeURIComponent(s.username + (s.password ? `:${s.password}` : '')).split(
      ':',
    );
    expect([
      s.protocol,
      method,
      password.join(':'),
      s.hostname,
      s.port,
      decodeURIComponent(s.hash.slice(1)),
    ]).toEqual([
      'ss:',
      '2022-blake3-aes-128-gcm',
      ssPassword(ENDPOINTS[3] as Endpoint, CREDENTIAL),
      '203.0.113.7',
      '8388',
      '新加坡 1 SS',
    ]);
    // The user's key is as long as the method's: 16 bytes for AES-128.
    expect(
      Buffer.from(ssPassword(ENDPOINTS[3] as Endpoint, CREDENTIAL).split(':')[1] ?? '', 'base64'),
    ).toHaveLength(16);
  });

  it('gives a Clash Meta configuration whose proxies and groups hold together', () => {
    const config = parse(render('clash', ENDPOINTS, CREDENTIAL, TITLE)) as {
      proxies: Record<string, unknown>[];
      'proxy-groups': { name: string; type: string; proxies: string[] }[];
      rules: string[];
    };
    const names = config.proxies.map((proxy) => proxy.name);
    expect(new Set(names).size).toBe(ENDPOINTS.length);
    for (const proxy of config.proxies) {
      expect(proxy).toEqual(
        expect.objectContaining({
          name: expect.any(String),
          server: expect.any(String),
          port: expect.any(Number),
        }),
      );
      expect(['vless', 'vmess', 'trojan', 'ss']).toContain(proxy.type);
    }
    expect(config.proxies[0]).toMatchObject({
      type: 'vless',
      uuid: CREDENTIAL.uuid,
      tls: true,
      flow: 'xtls-rprx-vision',
      'reality-opts': { 'short-id': '6ba85179e30d4fc2' },
    });
    expect(config.proxies[2]).toMatchObject({
      type: 'trojan',
      password: CREDENTIAL.secret,
      sni: 'jp1.example.com',
      network: 'grpc',
    });
    expect(config.proxies[3]).toMatchObject({ type: 'ss', cipher: '2022-blake3-aes-128-gcm' });
    const groups = new Set(config['proxy-groups'].map((group) => group.name));
    for (const group of config['proxy-groups']) {
      for (const member of group.proxies) expect(names.includes(member) || groups.has(member)).toBe(true);
    }
    expect(config.rules.at(-1)).toBe(`MATCH,${TITLE}`);
  });

  it('gives each slot the Clash Meta file the YAML library would write for it', () => {
    // Names the operator may give a node, which the YAML library quotes, escapes or folds.
    const names = [
      'a: b',
      '# hash',
      '*star',
      "it's",
      '"quoted"',
      'yes',
      '123',
      '- dash',
      'tab\there',
      `${'long name with spaces '.repeat(6)}end`,
      '🇯🇵 東京',
    ];
    const lists = [
      ENDPOINTS,
      ENDPOINTS.slice(1, 3),
      ENDPOINTS.map((endpoint, i) => ({ ...endpoint, name: names[i] ?? endpoint.name })),
      ENDPOINTS.map((endpoint, i) => ({
        ...endpoint,
        name: names[i + 4] ?? endpoint.name,
        host: names[i + 7] ?? '',
      })),
      [
        {
          ...(ENDPOINTS[3] as Endpoint),
          method: '2022-blake3-aes-256-gcm',
          serverKey: randomBytes(32).toString('base64'),
        },
      ],
    ];
    for (let i = 0; i < 300; i++) {
      // Secrets of every shape base64 gives: with `+` and `/`, starting with a digit, a sign or a slash.
      const credential: Credential = { uuid: randomUUID(), secret: randomBytes(32).toString('base64') };
      for (const [index, endpoints] of lists.entries()) {
        const title = index % 2 ? TITLE : 'Sky: way #1';
        expect(clashSubscription(endpoints, credential, title)).toBe(
          clashDocument(endpoints, credential, title),
        );
      }
    }
    // A credential of another shape is written by the library itself, as it is.
    for (const odd of [
      { uuid: 'not-a-uuid', secret: CREDENTIAL.secret },
      { uuid: CREDENTIAL.uuid, secret: 'true' },
      { uuid: CREDENTIAL.uuid, secret: '1234567890123456789012345678901234567890123' },
    ]) {
      expect(clashSubscription(ENDPOINTS, odd, TITLE)).toBe(clashDocument(ENDPOINTS, odd, TITLE));
      expect(parse(clashSubscription(ENDPOINTS, odd, TITLE)).proxies[2].password).toBe(odd.secret);
    }
  });

  it('gives a sing-box configuration whose outbounds and route hold together', () => {
    const config = JSON.parse(render('sing-box', ENDPOINTS, CREDENTIAL, TITLE)) as {
      outbounds: { type: string; tag: string; outbounds?: string[]; server?: string; server_port?: number }[];
      route: { final: string };
    };
    const tags = new Set(config.outbounds.map((outbound) => outbound.tag));
    expect(tags.size).toBe(config.outbounds.length);
    for (const outbound of config.outbounds) {
      for (const member of outbound.outbounds ?? []) expect(tags.has(member)).toBe(true);
      if (['vless', 'vmess', 'trojan', 'shadowsocks'].includes(outbound.type)) {
        expect(outbound).toEqual(
          expect.objectContaining({ server: expect.any(String), server_port: expect.any(Number) }),
        );
      }
    }
    expect(tags.has(config.route.final)).toBe(true);
    expect(config.outbounds.find((o) => o.type === 'vless')).toMatchObject({
      uuid: CREDENTIAL.uuid,
      tls: { enabled: true, server_name: 'www.microsoft.com', reality: { enabled: true } },
    });
  });

  it('lists only the Shadowsocks servers in SIP008', () => {
    const config = JSON.parse(render('sip008', ENDPOINTS, CREDENTIAL, TITLE));
    expect(config).toMatchObject({
      version: 1,
      servers: [{ server: '203.0.113.7', server_port: 8388, method: '2022-blake3-aes-128-gcm' }],
    });
  });

  it('picks the format by the app’s User-Agent', () => {
    const table: [string | undefined, string][] = [
      ['mihomo/1.19.0', 'clash'],
      ['clash-verge/v2.0.3', 'clash'],
      ['FlClash/v0.8.70', 'clash'],
      ['Stash/2.4.7 Clash/1.9.0', 'clash'],
      ['ClashMetaForAndroid/2.11.0.Meta', 'clash'],
      ['sing-box 1.11.4', 'sing-box'],
      ['SFA/1.10.0 (sing-box 1.10.0)', 'sing-box'],
      ['SFI/1.10.0', 'sing-box'],
      ['HiddifyNext/2.5.7 (android) like ClashMeta v2ray sing-box', 'sing-box'],
      ['Shadowrocket/2070 CFNetwork/1410.0.3 Darwin/22.6.0', 'base64'],
      ['v2rayN/7.4.2', 'base64'],
      ['v2rayNG/1.9.30', 'base64'],
      ['curl/8.5.0', 'base64'],
      [undefined, 'base64'],
    ];
    for (const [ua, format] of table) expect(formatForUserAgent(ua), ua).toBe(format);
  });
});
