import path from 'node:path';
import type { CoreDialect } from './dialect.ts';
import type {
  CoreConfig,
  CoreSettings,
  CoreUser,
  NodeInbound,
  Refusals,
  RenderedCore,
  SkippedInbound,
} from './driver.ts';

/** The tag of the API's inbound, outbound (the core's own) and routing rule. */
export const API_TAG = 'api';
export const BLOCKED_TAG = 'blocked';

/** Addresses users must not reach through the node: its loopback, private networks, link-local. */
const PRIVATE_RANGES = [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.168.0.0/16',
  '::1/128',
  'fc00::/7',
  'fe80::/10',
];

/** The access log of a core whose users' addresses are read from it, in the agent's state folder. */
export const accessLogFile = (settings: CoreSettings) => path.join(settings.stateDir, 'access.log');

/** The routing rule that refuses a user's other devices: one per user, named for Xray's RemoveRule. */
export const refusalRuleTag = (email: string) => `refuse:${email}`;

/** A user's level, fixed: level 0's policy turns on the per-user counters. */
export const USER_LEVEL = 0;

/** The part of `streamSettings` every core writes alike: transport and TLS. */
export function streamSettings(inbound: NodeInbound, settings: CoreSettings): CoreConfig {
  const stream: CoreConfig = { network: inbound.transport, security: inbound.security };
  if (inbound.transport === 'ws') stream.wsSettings = { path: inbound.path ?? '/' };
  if (inbound.transport === 'grpc') stream.grpcSettings = { serviceName: inbound.path ?? '' };
  if (inbound.security === 'tls' && settings.tls) {
    stream.tlsSettings = {
      ...(inbound.server_name ? { serverName: inbound.server_name } : {}),
      certificates: [{ certificateFile: settings.tls.certificateFile, keyFile: settings.tls.keyFile }],
    };
  }
  return stream;
}

/** Why no core can serve the inbound as configured here; undefined when one can. */
function unsupportedAnywhere(
  inbound: NodeInbound,
  settings: CoreSettings,
  taken: Set<string>,
): string | undefined {
  if (inbound.tag === API_TAG || inbound.tag === BLOCKED_TAG) return `the tag "${inbound.tag}" is reserved`;
  if (inbound.port === settings.apiPort) return `port ${inbound.port} is the core's API port`;
  if (taken.has(`tag:${inbound.tag}`)) return `another inbound has the tag "${inbound.tag}"`;
  if (taken.has(`port:${inbound.port}`)) return `another inbound listens on port ${inbound.port}`;
  if (inbound.security === 'tls' && !settings.tls) {
    return 'TLS needs TLS_CERT and TLS_KEY in the agent configuration';
  }
  return undefined;
}

/** The core's whole configuration: the API on loopback, the served inbounds, and routing. */
export function renderCoreConfig(
  dialect: CoreDialect,
  inbounds: readonly NodeInbound[],
  users: readonly CoreUser[],
  settings: CoreSettings,
  refusals: Refusals = new Map(),
): RenderedCore {
  const served: NodeInbound[] = [];
  const skipped: SkippedInbound[] = [];
  const taken = new Set<string>();
  for (const inbound of inbounds) {
    const reason = unsupportedAnywhere(inbound, settings, taken) ?? dialect.unsupported(inbound, settings);
    if (reason) {
      skipped.push({ tag: inbound.tag, reason });
      continue;
    }
    taken.add(`tag:${inbound.tag}`).add(`port:${inbound.port}`);
    served.push(inbound);
  }
  const config: CoreConfig = {
    log: {
      loglevel: 'warning',
      ...(dialect.addresses === 'access-log' ? { access: accessLogFile(settings) } : {}),
    },
    api: {
      tag: API_TAG,
      services: ['HandlerService', 'StatsService', ...(dialect.liveRefusals ? ['RoutingService'] : [])],
    },
    stats: {},
    policy: {
      levels: { [USER_LEVEL]: dialect.userPolicy },
      system: {},
    },
    inbounds: [
      {
        tag: API_TAG,
        listen: '127.0.0.1',
        port: settings.apiPort,
        protocol: 'dokodemo-door',
        settings: { address: '127.0.0.1' },
      },
      ...served.map((inbound) => ({
        tag: inbound.tag,
        listen: settings.listen,
        port: inbound.port,
        ...dialect.inbound(inbound, users, settings),
      })),
    ],
    outbounds: [
      { tag: 'direct', protocol: 'freedom' },
      { tag: BLOCKED_TAG, protocol: 'blackhole' },
    ],
    routing: {
      // Resolve a domain before the IP rules, so `localhost` is blocked like 127.0.0.1.
      domainStrategy: 'IPIfNonMatch',
      rules: [
        { type: 'field', inboundTag: [API_TAG], outboundTag: API_TAG },
        // The API takes no password: a user must never reach it through the proxy.
        {
          type: 'field',
          ip: ['127.0.0.0/8', '::1/128'],
          port: String(settings.apiPort),
          outboundTag: BLOCKED_TAG,
        },
        // One device per slot: the addresses the panel refuses each user from.
        ...[...refusals]
          .filter(([, addresses]) => addresses.length > 0)
          .map(([email, addresses]) => ({
            type: 'field',
            ...(dialect.liveRefusals ? { ruleTag: refusalRuleTag(email) } : {}),
            user: [email],
            source: [...addresses],
            outboundTag: BLOCKED_TAG,
          })),
        ...(settings.allowPrivateDestinations
          ? []
          : [{ type: 'field', ip: PRIVATE_RANGES, outboundTag: BLOCKED_TAG }]),
      ],
    },
  };
  return { config, served, skipped };
}
