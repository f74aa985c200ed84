import { z } from 'zod';
import { PERIOD_NAMES } from '../../plans.ts';
import { isoTime } from './common.ts';
import { PROTOCOLS, SECURITIES, SS_METHODS, TRANSPORTS, VLESS_FLOWS } from '../../nodes.ts';

export { PROTOCOLS, SECURITIES, SS_KEY_BYTES, SS_METHODS, TRANSPORTS, VLESS_FLOWS } from '../../nodes.ts';

const hostName = z
  .string()
  .trim()
  .min(1)
  .max(253)
  .regex(
    /^(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)*[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?$|^\d{1,3}(?:\.\d{1,3}){3}$|^[0-9a-fA-F:]+$/,
  );

const nodeFields = z.object({
  name: z.string().trim().min(1).max(64),
  region: z.string().trim().min(1).max(32),
  host: hostName,
  enabled: z.boolean().default(true),
  sort_order: z.number().int().min(-1000).max(1000).default(0),
  /** The plans whose customers may use it; null: every plan. */
  periods: z.array(z.enum(PERIOD_NAMES)).min(1).nullable().default(null),
  min_connections: z.number().int().min(1).max(1000).default(1),
  /** What a customer is charged per byte moved through it, in percent (a premium route: more). */
  rate_percent: z.number().int().min(0).max(10_000).default(100),
  /**
   * What the node's line carries each way, in Mbit/s (1 Mbit/s … 1 Tbit/s): a report of more bytes
   * than it could carry in the report's window is refused.
   */
  line_mbps: z.number().int().min(1).max(1_000_000).default(10_000),
});
export const nodeCreateRequest = nodeFields;
export const nodePatchRequest = nodeFields
  .partial()
  .refine((patch) => Object.keys(patch).length > 0, { path: ['body'] });

/**
 * An inbound, checked as a whole: the combinations its clients can use. REALITY is VLESS over TCP
 * with a server name and a public key; the Vision flow is VLESS over TCP with TLS or REALITY; Trojan
 * needs TLS; Shadowsocks 2022 is plain TCP with its method.
 */
export const inboundRequest = z
  .object({
    protocol: z.enum(PROTOCOLS),
    port: z.number().int().min(1).max(65_535),
    transport: z.enum(TRANSPORTS),
    path: z.string().trim().min(1).max(200).nullable().default(null),
    security: z.enum(SECURITIES),
    server_name: hostName.nullable().default(null),
    flow: z.enum(VLESS_FLOWS).nullable().default(null),
    reality_public_key: z
      .string()
      .regex(/^[\w-]{43}$/)
      .nullable()
      .default(null),
    reality_short_id: z
      .string()
      .regex(/^[0-9a-f]{0,16}$/)
      .nullable()
      .default(null),
    method: z.enum(SS_METHODS).nullable().default(null),
    enabled: z.boolean().default(true),
    sort_order: z.number().int().min(-1000).max(1000).default(0),
  })
  .superRefine((inbound, ctx) => {
    const refuse = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (inbound.security === 'reality') {
      if (inbound.protocol !== 'vless' || inbound.transport !== 'tcp')
        refuse('security', 'REALITY is VLESS over TCP');
      if (!inbound.reality_public_key) refuse('reality_public_key', 'REALITY needs its public key');
      if (!inbound.server_name) refuse('server_name', 'REALITY needs the server name it borrows');
    } else if (inbound.reality_public_key || inbound.reality_short_id) {
      refuse('reality_public_key', 'only with REALITY');
    }
    if (
      inbound.flow &&
      !(inbound.protocol === 'vless' && inbound.transport === 'tcp' && inbound.security !== 'none')
    ) {
      refuse('flow', 'the Vision flow is VLESS over TCP with TLS or REALITY');
    }
    if (inbound.protocol === 'trojan' && inbound.security !== 'tls') refuse('security', 'Trojan needs TLS');
    if (inbound.protocol === 'shadowsocks') {
      if (!inbound.method) refuse('method', 'Shadowsocks 2022 needs its method');
      if (inbound.transport !== 'tcp' || inbound.security !== 'none')
        refuse('transport', 'Shadowsocks 2022 is plain TCP');
    } else if (inbound.method) {
      refuse('method', 'only with Shadowsocks');
    }
    if (inbound.transport !== 'tcp' && !inbound.path)
      refuse('path', 'WebSocket and gRPC need a path or service name');
  });

export const inboundSchema = z.object({
  id: z.uuid(),
  protocol: z.enum(PROTOCOLS),
  port: z.number().int(),
  transport: z.enum(TRANSPORTS),
  path: z.string().nullable(),
  security: z.enum(SECURITIES),
  server_name: z.string().nullable(),
  flow: z.string().nullable(),
  reality_public_key: z.string().nullable(),
  reality_short_id: z.string().nullable(),
  method: z.string().nullable(),
  enabled: z.boolean(),
  sort_order: z.number().int(),
});

export const nodeSchema = z.object({
  id: z.uuid(),
  /** The node's stable integer: its `node_id` for UniProxy node programs (V2bX, XrayR). */
  number: z.number().int(),
  name: z.string(),
  region: z.string(),
  host: z.string(),
  enabled: z.boolean(),
  sort_order: z.number().int(),
  periods: z.array(z.string()).nullable(),
  min_connections: z.number().int(),
  rate_percent: z.number().int(),
  line_mbps: z.number().int(),
  /** Whether the node has an API token (its agent can connect); the token is shown only once. */
  token_issued: z.boolean(),
  /** The agent's last call, and what its last status said. */
  last_seen_at: isoTime.nullable(),
  status: z
    .object({
      load: z.tuple([z.number(), z.number(), z.number()]),
      memory: z.object({ total: z.number(), used: z.number() }),
      agent_version: z.string(),
      core: z.string(),
      uptime: z.number(),
    })
    .nullable(),
  created_at: isoTime,
  updated_at: isoTime,
  inbounds: z.array(inboundSchema),
});

/** What a node sent that was refused, by kind. */
export const NODE_REFUSAL_KINDS = ['foreign_traffic', 'foreign_sightings', 'implausible_traffic'] as const;

/**
 * What a node sent that was refused, one entry per kind: traffic or sightings of slots it does not
 * serve, or traffic its line could not have carried. How many times, the first and the latest, and
 * what the latest said (`slots` refused; or the bytes `upload` / `download` claimed, the `allowed`
 * bytes each way and the `window_seconds` they were judged on).
 */
export const nodeRefusalSchema = z.object({
  kind: z.enum(NODE_REFUSAL_KINDS),
  times: z.number().int(),
  first_at: isoTime,
  last_at: isoTime,
  last: z.record(z.string(), z.number()),
});

/**
 * A node in the back office's list: with what moved through it this period (charged bytes, each
 * total capped at 2^53 − 1) and what it sent that was refused.
 */
export const nodeListItemSchema = nodeSchema.extend({
  traffic: z.object({ upload: z.number().int(), download: z.number().int() }),
  refusals: z.array(nodeRefusalSchema),
});

/** Reply of issuing a node's API token: the token, this once (the server keeps only its hash). */
export const nodeTokenSchema = z.object({ token: z.string() });

type Protocol = (typeof PROTOCOLS)[number];
type Transport = (typeof TRANSPORTS)[number];
type Security = (typeof SECURITIES)[number];

/**
 * What the back office's inbound form offers for a protocol, transport and security: the
 * combinations `inboundRequest` accepts, and no other (nodes.test.ts tries every one). A field not
 * offered is sent as null.
 */
export function inboundChoices(protocol: Protocol, transport: Transport, security: Security) {
  const transports: readonly Transport[] = protocol === 'shadowsocks' ? ['tcp'] : TRANSPORTS;
  const securities: readonly Security[] =
    protocol === 'shadowsocks'
      ? ['none']
      : protocol === 'trojan'
        ? ['tls']
        : protocol === 'vless' && transport === 'tcp'
          ? SECURITIES
          : ['none', 'tls'];
  return {
    transports,
    securities,
    /** The WebSocket path or gRPC service name, required with them. */
    path: transport !== 'tcp',
    /** The name TLS presents (optional), or the one REALITY borrows (required). */
    serverName: security !== 'none',
    /** REALITY's public key (required) and short id. */
    reality: security === 'reality',
    /** The Vision flow (optional). */
    flow: protocol === 'vless' && transport === 'tcp' && security !== 'none',
    /** The Shadowsocks 2022 method (required). */
    method: protocol === 'shadowsocks',
  };
}
