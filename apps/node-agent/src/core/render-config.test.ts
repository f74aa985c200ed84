import { describe, expect, it } from 'vitest';
import { ssUserKey } from '@skyway/shared/shadowsocks';
import { testInbound } from '../testing/v2ray-client.ts';
import type { CoreSettings, CoreUser } from './driver.ts';
import { renderCoreConfig } from './render-config.ts';
import { v2rayDialect } from './v2ray-dialect.ts';
import { xrayDialect } from './xray-dialect.ts';

/*
 * The cores' JSON written from their documentation (Xray: xtls.github.io/config; V2Ray 4:
 * v2fly.org/v4/config) and checked here field by field. V2Ray's is also run for real in
 * v2ray-driver.test.ts; no Xray binary installs on these machines, so this is Xray's check.
 */
const settings: CoreSettings = {
  bin: '/usr/local/bin/xray',
  stateDir: '/var/lib/skyway-node-agent',
  apiPort: 10085,
  listen: '0.0.0.0',
  tls: { certificateFile: '/etc/ssl/node.pem', keyFile: '/etc/ssl/node.key' },
  reality: { privateKey: 'SMxr2S4nfA4h3NfNmCS3fn9fp2VvHPqhuwZ5bHLHjVk' },
  allowPrivateDestinations: false,
};
const user: CoreUser = {
  email: 'slot-1@node',
  uuid: '8d5e5d1e-6f0c-4a63-9a0b-5f1d2c3b4a59',
  password: Buffer.alloc(32, 7).toString('base64'),
};
const serverKey = Buffer.alloc(16, 9).toString('base64');

const inbounds = {
  vlessVision: testInbound({
    tag: 'vless-vision',
    protocol: 'vless',
    port: 443,
    security: 'tls',
    server_name: 'node.example.com',
    flow: 'xtls-rprx-vision',
  }),
  vlessReality: testInbound({
    tag: 'vless-reality',
    protocol: 'vless',
    port: 8443,
    security: 'reality',
    server_name: 'www.microsoft.com',
    flow: 'xtls-rprx-vision',
    reality_public_key: 'pub',
    reality_short_id: '6ba85179e30d4fc2',
  }),
  vmessWs: testInbound({ tag: 'vmess-ws', protocol: 'vmess', port: 8080, transport: 'ws', path: '/ray' }),
  trojanGrpc: testInbound({
    tag: 'trojan-grpc',
    protocol: 'trojan',
    port: 2083,
    transport: 'grpc',
    path: 'tun',
    security: 'tls',
    server_name: 'node.example.com',
  }),
  ss2022: testInbound({
    tag: 'ss',
    protocol: 'shadowsocks',
    port: 8388,
    method: '2022-blake3-aes-128-gcm',
    server_key: serverKey,
  }),
  vlessTcp: testInbound({ tag: 'vless-tcp', protocol: 'vless', port: 10000 }),
};

describe('the Xray configuration', () => {
  const rendered = renderCoreConfig(xrayDialect, Object.values(inbounds), [user], settings);
  const inbound = (tag: string) =>
    (rendered.config.inbounds as { tag: string }[]).find((entry) => entry.tag === tag);

  it('serves every protocol and transport, with the API on loopback and per-user stats', () => {
    expect(rendered.skipped).toEqual([]);
    expect(rendered.config).toMatchObject({
      api: { tag: 'api', services: ['HandlerService', 'StatsService', 'RoutingService'] },
      stats: {},
      policy: { levels: { 0: { statsUserUplink: true, statsUserDownlink: true, statsUserOnline: true } } },
    });
    expect(inbound('api')).toEqual({
      tag: 'api',
      listen: '127.0.0.1',
      port: 10085,
      protocol: 'dokodemo-door',
      settings: { address: '127.0.0.1' },
    });
  });

  it('writes VLESS with Vision over TLS from the agent’s certificate files', () => {
    expect(inbound('vless-vision')).toEqual({
      tag: 'vless-vision',
      listen: '0.0.0.0',
      port: 443,
      protocol: 'vless',
      settings: {
        clients: [{ id: user.uuid, email: user.email, level: 0, flow: 'xtls-rprx-vision' }],
        decryption: 'none',
      },
      streamSettings: {
        network: 'tcp',
        security: 'tls',
        tlsSettings: {
          serverName: 'node.example.com',
          certificates: [{ certificateFile: '/etc/ssl/node.pem', keyFile: '/etc/ssl/node.key' }],
        },
      },
    });
  });

  it('writes REALITY with the private key from the agent’s configuration', () => {
    expect(inbound('vless-reality')).toMatchObject({
      streamSettings: {
        network: 'tcp',
        security: 'reality',
        realitySettings: {
          dest: 'www.microsoft.com:443',
          serverNames: ['www.microsoft.com'],
          privateKey: settings.reality?.privateKey,
          shortIds: ['6ba85179e30d4fc2'],
        },
      },
    });
    expect(JSON.stringify(rendered.config)).not.toContain('"pub"');
  });

  it('writes VMess over WebSocket and Trojan over gRPC', () => {
    expect(inbound('vmess-ws')).toMatchObject({
      protocol: 'vmess',
      settings: { clients: [{ id: user.uuid, email: user.email, level: 0 }] },
      streamSettings: { network: 'ws', security: 'none', wsSettings: { path: '/ray' } },
    });
    expect(inbound('trojan-grpc')).toMatchObject({
      protocol: 'trojan',
      settings: { clients: [{ password: user.password, email: user.email, level: 0 }] },
      streamSettings: { network: 'grpc', security: 'tls', grpcSettings: { serviceName: 'tun' } },
    });
  });

  it('writes Shadowsocks 2022 with the server key and each user’s key cut to the method', () => {
    expect(inbound('ss')).toMatchObject({
      protocol: 'shadowsocks',
      settings: {
        method: '2022-blake3-aes-128-gcm',
        password: serverKey,
        clients: [{ password: ssUserKey(user.password, '2022-blake3-aes-128-gcm'), email: user.email }],
        network: 'tcp,udp',
      },
    });
    expect(Buffer.from(ssUserKey(user.password, '2022-blake3-aes-128-gcm'), 'base64')).toHaveLength(16);
  });

  it('routes the API to itself and keeps users off it and off private networks', () => {
    expect(rendered.config.routing).toEqual({
      domainStrategy: 'IPIfNonMatch',
      rules: [
        { type: 'field', inboundTag: ['api'], outboundTag: 'api' },
        { type: 'field', ip: ['127.0.0.0/8', '::1/128'], port: '10085', outboundTag: 'blocked' },
        {
          type: 'field',
          ip: expect.arrayContaining(['10.0.0.0/8', '192.168.0.0/16']),
          outboundTag: 'blocked',
        },
      ],
    });
    const open = renderCoreConfig(xrayDialect, [], [], { ...settings, allowPrivateDestinations: true });
    expect((open.config.routing as { rules: unknown[] }).rules).toHaveLength(2);
  });

  it('skips what it cannot serve as configured, saying why', () => {
    const { skipped, served } = renderCoreConfig(
      xrayDialect,
      [
        inbounds.vlessReality,
        inbounds.vlessVision,
        { ...inbounds.vmessWs, tag: 'vision-on-ws', protocol: 'vless', flow: 'xtls-rprx-vision' },
        inbounds.vlessTcp,
        { ...inbounds.vlessTcp, tag: 'api', port: 10001 },
        { ...inbounds.vlessTcp, tag: 'same-port' },
        { ...inbounds.vmessWs, tag: 'vless-tcp' },
        { ...inbounds.vlessTcp, tag: 'on-api-port', port: 10085 },
        { ...inbounds.ss2022, server_key: null },
      ],
      [],
      { ...settings, tls: undefined, reality: undefined },
    );
    expect(served).toEqual([inbounds.vlessTcp]);
    expect(skipped).toEqual([
      { tag: 'vless-reality', reason: 'REALITY needs REALITY_PRIVATE_KEY in the agent configuration' },
      { tag: 'vless-vision', reason: 'TLS needs TLS_CERT and TLS_KEY in the agent configuration' },
      { tag: 'vision-on-ws', reason: 'the xtls-rprx-vision flow needs TCP with TLS or REALITY' },
      { tag: 'api', reason: 'the tag "api" is reserved' },
      { tag: 'same-port', reason: 'another inbound listens on port 10000' },
      { tag: 'vless-tcp', reason: 'another inbound has the tag "vless-tcp"' },
      { tag: 'on-api-port', reason: "port 10085 is the core's API port" },
      { tag: 'ss', reason: 'Shadowsocks 2022 needs its method and server key' },
    ]);
  });

  it('gives each protocol its account message for the API', () => {
    expect(xrayDialect.account(inbounds.vlessVision, user)).toEqual({
      type: 'xray.proxy.vless.Account',
      fields: { id: user.uuid, flow: 'xtls-rprx-vision' },
    });
    expect(xrayDialect.account(inbounds.vmessWs, user)).toEqual({
      type: 'xray.proxy.vmess.Account',
      fields: { id: user.uuid },
    });
    expect(xrayDialect.account(inbounds.trojanGrpc, user)).toEqual({
      type: 'xray.proxy.trojan.Account',
      fields: { password: user.password },
    });
    expect(xrayDialect.account(inbounds.ss2022, user)).toEqual({
      type: 'xray.proxy.shadowsocks_2022.Account',
      fields: { key: ssUserKey(user.password, '2022-blake3-aes-128-gcm') },
    });
  });
});

describe('the V2Ray 4.34 configuration', () => {
  const rendered = renderCoreConfig(v2rayDialect, Object.values(inbounds), [user], settings);

  it('skips Shadowsocks 2022, REALITY, Vision and gRPC, saying why', () => {
    expect(rendered.served.map((inbound) => inbound.tag)).toEqual(['vmess-ws', 'vless-tcp']);
    expect(rendered.skipped).toEqual([
      { tag: 'vless-vision', reason: 'v2ray has no xtls-rprx-vision flow (use the xray core)' },
      { tag: 'vless-reality', reason: 'v2ray has no REALITY (use the xray core)' },
      { tag: 'trojan-grpc', reason: 'v2ray 4.34 has no gRPC transport (use the xray core)' },
      { tag: 'ss', reason: 'v2ray has no Shadowsocks 2022 (use the xray core)' },
    ]);
    expect(rendered.config.policy).toEqual({
      levels: { 0: { statsUserUplink: true, statsUserDownlink: true } },
      system: {},
    });
  });

  it('writes VMess with alterId 0 (AEAD) and VLESS without a flow', () => {
    const [, vmess, vless] = rendered.config.inbounds as object[];
    expect(vmess).toMatchObject({
      protocol: 'vmess',
      settings: { clients: [{ id: user.uuid, email: user.email, level: 0, alterId: 0 }] },
    });
    expect(vless).toMatchObject({
      protocol: 'vless',
      settings: { clients: [{ id: user.uuid, email: user.email, level: 0 }], decryption: 'none' },
      streamSettings: { network: 'tcp', security: 'none' },
    });
    expect(v2rayDialect.account(inbounds.vlessTcp, user)).toEqual({
      type: 'v2ray.core.proxy.vless.Account',
      fields: { id: user.uuid },
    });
  });
});

describe('refusing a user’s other devices', () => {
  const refusals = new Map([[user.email, ['198.51.100.7', '2001:db8::9']]]);
  const rulesOf = (config: Record<string, unknown>) =>
    (config.routing as { rules: Record<string, unknown>[] }).rules;

  it('writes one rule per refused user, routed to the blackhole, named for Xray to remove it', () => {
    const xray = renderCoreConfig(xrayDialect, [inbounds.vlessTcp], [user], settings, refusals).config;
    expect(rulesOf(xray)).toContainEqual({
      type: 'field',
      ruleTag: `refuse:${user.email}`,
      user: [user.email],
      source: ['198.51.100.7', '2001:db8::9'],
      outboundTag: 'blocked',
    });
    // Xray reads the users' addresses from its online lists: no access log.
    expect(xray.log).toEqual({ loglevel: 'warning' });
  });

  it('gives V2Ray the rule without a tag, and an access log to read the addresses from', () => {
    const v2ray = renderCoreConfig(v2rayDialect, [inbounds.vlessTcp], [user], settings, refusals).config;
    expect(rulesOf(v2ray)).toContainEqual({
      type: 'field',
      user: [user.email],
      source: ['198.51.100.7', '2001:db8::9'],
      outboundTag: 'blocked',
    });
    expect(v2ray.log).toEqual({ loglevel: 'warning', access: '/var/lib/skyway-node-agent/access.log' });
    expect(v2ray.api).toEqual({ tag: 'api', services: ['HandlerService', 'StatsService'] });
  });

  it('writes no rule for a user refused from nowhere', () => {
    const none = renderCoreConfig(
      xrayDialect,
      [inbounds.vlessTcp],
      [user],
      settings,
      new Map([[user.email, []]]),
    );
    expect(rulesOf(none.config).some((rule) => 'user' in rule)).toBe(false);
  });
});
