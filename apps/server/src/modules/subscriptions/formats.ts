import { randomBytes, randomUUID } from 'node:crypto';
import { stringify } from 'yaml';
import { SS_KEY_BYTES } from '@skyway/shared/nodes';
import { ssUserKey, ssUserKeyOfLength } from '@skyway/shared/shadowsocks';
import type { Endpoint } from '../nodes/endpoints.ts';

/** A slot's credential: the VLESS / VMess id, and its key for Trojan and Shadowsocks 2022. */
export interface Credential {
  uuid: string;
  secret: string;
}

export const FORMATS = ['clash', 'sing-box', 'base64', 'sip008'] as const;
export type Format = (typeof FORMATS)[number];

/** The client's fingerprint the TLS handshakes imitate (uTLS). */
const FINGERPRINT = 'chrome';

/**
 * A Shadowsocks 2022 password as multi-user servers take it: the server's key, then the user's, each
 * as long as the method's key (the slot's 32-byte secret is cut to 16 for AES-128).
 */
export function ssPassword(endpoint: Endpoint, credential: Credential): string {
  return `${endpoint.serverKey}:${ssUserKey(credential.secret, endpoint.method)}`;
}

const tls = (endpoint: Endpoint) => endpoint.security !== 'none';

/** The share link of one endpoint (v2rayN / Shadowrocket): VLESS, VMess (v2rayN's JSON), Trojan, SIP002. */
export function shareLink(endpoint: Endpoint, credential: Credential): string {
  const at = `${endpoint.host.includes(':') ? `[${endpoint.host}]` : endpoint.host}:${endpoint.port}`;
  const name = `#${encodeURIComponent(endpoint.name)}`;
  const transport = (): Record<string, string> =>
    endpoint.transport === 'ws'
      ? { type: 'ws', path: endpoint.path ?? '/', host: endpoint.serverName ?? '' }
      : endpoint.transport === 'grpc'
        ? { type: 'grpc', serviceName: endpoint.path ?? '', mode: 'gun' }
        : { type: 'tcp' };
  const security = (): Record<string, string> =>
    endpoint.security === 'reality'
      ? {
          security: 'reality',
          sni: endpoint.serverName ?? '',
          fp: FINGERPRINT,
          pbk: endpoint.realityPublicKey ?? '',
          sid: endpoint.realityShortId ?? '',
        }
      : endpoint.security === 'tls'
        ? { security: 'tls', sni: endpoint.serverName ?? endpoint.host, fp: FINGERPRINT }
        : { security: 'none' };
  const query = (params: Record<string, string>) =>
    new URLSearchParams(Object.entries(params).filter(([, value]) => value !== '')).toString();
  switch (endpoint.protocol) {
    case 'vless':
      return `vless://${credential.uuid}@${at}?${query({
        encryption: 'none',
        ...security(),
        ...transport(),
        ...(endpoint.flow ? { flow: endpoint.flow } : {}),
      })}${name}`;
    case 'trojan':
      return `trojan://${encodeURIComponent(credential.secret)}@${at}?${query({ ...security(), ...transport() })}${name}`;
    case 'shadowsocks':
      // SIP002: a 2022 method's user info is percent-encoded, never base64.
      return `ss://${encodeURIComponent(`${endpoint.method}:${ssPassword(endpoint, credential)}`)}@${at}${name}`;
    case 'vmess': {
      const body = {
        v: '2',
        ps: endpoint.name,
        add: endpoint.host,
        port: String(endpoint.port),
        id: credential.uuid,
        aid: '0',
        scy: 'auto',
        net: endpoint.transport,
        type: endpoint.transport === 'grpc' ? 'gun' : 'none',
        host: endpoint.transport === 'ws' ? (endpoint.serverName ?? '') : '',
        path: endpoint.path ?? '',
        tls: tls(endpoint) ? 'tls' : '',
        sni: tls(endpoint) ? (endpoint.serverName ?? endpoint.host) : '',
        fp: tls(endpoint) ? FINGERPRINT : '',
      };
      return `vmess://${Buffer.from(JSON.stringify(body)).toString('base64')}`;
    }
  }
}

/** v2rayN and Shadowrocket's subscription: the share links, one per line, in base64. */
export const base64Subscription = (endpoints: Endpoint[], credential: Credential) =>
  Buffer.from(endpoints.map((endpoint) => shareLink(endpoint, credential)).join('\n')).toString('base64');

/** A proxy of mihomo (Clash Meta)'s configuration reference. */
function clashProxy(endpoint: Endpoint, credential: Credential): Record<string, unknown> {
  const base = { name: endpoint.name, type: '', server: endpoint.host, port: endpoint.port, udp: true };
  const network =
    endpoint.transport === 'ws'
      ? {
          network: 'ws',
          'ws-opts': {
            path: endpoint.path ?? '/',
            ...(endpoint.serverName ? { headers: { Host: endpoint.serverName } } : {}),
          },
        }
      : endpoint.transport === 'grpc'
        ? { network: 'grpc', 'grpc-opts': { 'grpc-service-name': endpoint.path ?? '' } }
        : { network: 'tcp' };
  const security =
    endpoint.security === 'reality'
      ? {
          tls: true,
          servername: endpoint.serverName,
          'client-fingerprint': FINGERPRINT,
          'reality-opts': {
            'public-key': endpoint.realityPublicKey,
            'short-id': endpoint.realityShortId ?? '',
          },
        }
      : endpoint.security === 'tls'
        ? { tls: true, servername: endpoint.serverName ?? endpoint.host, 'client-fingerprint': FINGERPRINT }
        : { tls: false };
  switch (endpoint.protocol) {
    case 'vless':
      return {
        ...base,
        type: 'vless',
        uuid: credential.uuid,
        ...network,
        ...security,
        ...(endpoint.flow ? { flow: endpoint.flow } : {}),
      };
    case 'vmess':
      return {
        ...base,
        type: 'vmess',
        uuid: credential.uuid,
        alterId: 0,
        cipher: 'auto',
        ...network,
        ...security,
      };
    case 'trojan': {
      const { servername, ...rest } = security as { servername?: string };
      return { ...base, type: 'trojan', password: credential.secret, sni: servername, ...network, ...rest };
    }
    case 'shadowsocks':
      return { ...base, type: 'ss', cipher: endpoint.method, password: ssPassword(endpoint, credential) };
  }
}

/** A whole mihomo (Clash Meta) configuration: the proxies, a group to choose one and one to test them, and every rule to it. */
export function clashSubscription(endpoints: Endpoint[], credential: Credential, title: string): string {
  return CREDENTIAL_SHAPE.test(`${credential.uuid} ${credential.secret}`)
    ? fillIn(clashTemplate(endpoints, title), credential)
    : clashDocument(endpoints, credential, title);
}

/** mihomo's configuration as the YAML library writes it: about 0.9 ms for ten servers. */
export function clashDocument(endpoints: Endpoint[], credential: Credential, title: string): string {
  const names = endpoints.map((endpoint) => endpoint.name);
  const auto = `${title} Auto`;
  return stringify({
    'mixed-port': 7890,
    'allow-lan': false,
    mode: 'rule',
    'log-level': 'warning',
    proxies: endpoints.map((endpoint) => clashProxy(endpoint, credential)),
    'proxy-groups': [
      { name: title, type: 'select', proxies: [auto, ...names] },
      {
        name: auto,
        type: 'url-test',
        proxies: names,
        url: 'https://www.gstatic.com/generate_204',
        interval: 300,
      },
    ],
    rules: ['GEOIP,PRIVATE,DIRECT,no-resolve', `MATCH,${title}`],
  });
}

// mihomo's configuration is the same for every slot but for the slot's credential, which is in it only
// as whole values: the UUID, the key (Trojan), and Shadowsocks passwords (`server key:the key cut to
// the method's length`). Each of them is a plain YAML scalar whatever the slot: hexadecimal digits
// and hyphens, base64 (letters, digits, `+`, `/`, ending in `=`), a colon between two of those; never
// a number, a boolean or null, never folded (no space), never needing quotes. So the document is
// written once per list of servers and title with a stand-in credential of the same shape, and each
// fetch puts its slot's values in the stand-in's places (formats.test.ts compares the two ways).

/**
 * A credential of the shape every slot's has (`newCredential`): a UUID, and a 32-byte key in base64,
 * whose `=` at the end (and its 16-byte cut's `==`) no number, boolean or null has. Its values are
 * plain YAML; another credential is written by the library itself.
 */
const CREDENTIAL_SHAPE = /^[\da-f]{8}-[\da-f]{4}-[\da-f]{4}-[\da-f]{4}-[\da-f]{12} [A-Za-z\d+/]{43}=$/i;
/**
 * Unguessable, so that no server's name or address can hold one of its values by chance; its key
 * longer than any method's, so that the whole key and each cut of it are told apart.
 */
const STAND_IN: Credential = { uuid: randomUUID(), secret: randomBytes(48).toString('base64') };
/** Each value of the stand-in's that a document may hold, and how a slot's credential gives it. */
const STAND_IN_VALUES = new Map<string, (credential: Credential) => string>([
  [STAND_IN.uuid, (credential) => credential.uuid],
  [STAND_IN.secret, (credential) => credential.secret],
  ...[...new Set(Object.values(SS_KEY_BYTES))].map(
    (bytes) =>
      [
        ssUserKeyOfLength(STAND_IN.secret, bytes),
        (credential: Credential) => ssUserKeyOfLength(credential.secret, bytes),
      ] as const,
  ),
]);
const STAND_IN_PATTERN = new RegExp(
  [...STAND_IN_VALUES.keys()]
    // The longest first, so that a value is never taken for another one's beginning.
    .sort((a, b) => b.length - a.length)
    .map((value) => value.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'))
    .join('|'),
  'g',
);

const fillIn = (template: string, credential: Credential) =>
  template.replace(STAND_IN_PATTERN, (value) => STAND_IN_VALUES.get(value)?.(credential) ?? value);

/** Documents made, by title and servers; dropped all at once when there are many (the servers changed). */
const clashTemplates = new Map<string, string>();
const TEMPLATES_KEPT = 200;

function clashTemplate(endpoints: Endpoint[], title: string): string {
  const key = JSON.stringify([title, endpoints]);
  let template = clashTemplates.get(key);
  if (template === undefined) {
    if (clashTemplates.size >= TEMPLATES_KEPT) clashTemplates.clear();
    template = clashDocument(endpoints, STAND_IN, title);
    clashTemplates.set(key, template);
  }
  return template;
}

/** An outbound of sing-box's configuration reference. */
function singBoxOutbound(endpoint: Endpoint, credential: Credential): Record<string, unknown> {
  const base = { tag: endpoint.name, server: endpoint.host, server_port: endpoint.port };
  const transport =
    endpoint.transport === 'ws'
      ? {
          transport: {
            type: 'ws',
            path: endpoint.path ?? '/',
            ...(endpoint.serverName ? { headers: { Host: endpoint.serverName } } : {}),
          },
        }
      : endpoint.transport === 'grpc'
        ? { transport: { type: 'grpc', service_name: endpoint.path ?? '' } }
        : {};
  const tlsBlock =
    endpoint.security === 'none'
      ? {}
      : {
          tls: {
            enabled: true,
            server_name: endpoint.serverName ?? endpoint.host,
            utls: { enabled: true, fingerprint: FINGERPRINT },
            ...(endpoint.security === 'reality'
              ? {
                  reality: {
                    enabled: true,
                    public_key: endpoint.realityPublicKey,
                    short_id: endpoint.realityShortId ?? '',
                  },
                }
              : {}),
          },
        };
  switch (endpoint.protocol) {
    case 'vless':
      return {
        type: 'vless',
        ...base,
        uuid: credential.uuid,
        ...(endpoint.flow ? { flow: endpoint.flow } : {}),
        ...tlsBlock,
        ...transport,
      };
    case 'vmess':
      return {
        type: 'vmess',
        ...base,
        uuid: credential.uuid,
        security: 'auto',
        alter_id: 0,
        ...tlsBlock,
        ...transport,
      };
    case 'trojan':
      return { type: 'trojan', ...base, password: credential.secret, ...tlsBlock, ...transport };
    case 'shadowsocks':
      return {
        type: 'shadowsocks',
        ...base,
        method: endpoint.method,
        password: ssPassword(endpoint, credential),
      };
  }
}

/** A whole sing-box configuration: the outbounds, a selector and a URL test over them, and the route to the selector. */
export function singBoxSubscription(endpoints: Endpoint[], credential: Credential, title: string): string {
  const names = endpoints.map((endpoint) => endpoint.name);
  const auto = `${title} Auto`;
  return JSON.stringify(
    {
      log: { level: 'warn' },
      inbounds: [{ type: 'mixed', tag: 'mixed-in', listen: '127.0.0.1', listen_port: 2080 }],
      outbounds: [
        { type: 'selector', tag: title, outbounds: [auto, ...names], default: auto },
        {
          type: 'urltest',
          tag: auto,
          outbounds: names,
          url: 'https://www.gstatic.com/generate_204',
          interval: '5m',
        },
        ...endpoints.map((endpoint) => singBoxOutbound(endpoint, credential)),
        { type: 'direct', tag: 'direct' },
      ],
      route: { final: title, auto_detect_interface: true },
    },
    null,
    2,
  );
}

/** SIP008's online configuration: the Shadowsocks servers only. */
export function sip008Subscription(endpoints: Endpoint[], credential: Credential): string {
  return JSON.stringify(
    {
      version: 1,
      servers: endpoints
        .filter((endpoint) => endpoint.protocol === 'shadowsocks')
        .map((endpoint, index) => ({
          id: `${credential.uuid.slice(0, 24)}${String(index).padStart(12, '0')}`,
          remarks: endpoint.name,
          server: endpoint.host,
          server_port: endpoint.port,
          password: ssPassword(endpoint, credential),
          method: endpoint.method,
        })),
    },
    null,
    2,
  );
}

/** The subscription in a format. */
export function render(format: Format, endpoints: Endpoint[], credential: Credential, title: string): string {
  switch (format) {
    case 'clash':
      return clashSubscription(endpoints, credential, title);
    case 'sing-box':
      return singBoxSubscription(endpoints, credential, title);
    case 'sip008':
      return sip008Subscription(endpoints, credential);
    case 'base64':
      return base64Subscription(endpoints, credential);
  }
}

/**
 * The format an app asks for, by its User-Agent (as the comparable panels read it): mihomo and the
 * Clash family get Clash Meta, the sing-box family sing-box, everything else the base64 list.
 */
export function formatForUserAgent(userAgent: string | undefined): Format {
  const ua = (userAgent ?? '').toLowerCase();
  if (/sing-box|\bsfa\b|\bsfi\b|\bsfm\b|hiddify/.test(ua)) return 'sing-box';
  if (/mihomo|clash|verge|flclash|stash|meta/.test(ua)) return 'clash';
  return 'base64';
}
