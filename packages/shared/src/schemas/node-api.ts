import { z } from 'zod';
import { PROTOCOLS, SECURITIES, SS_METHODS, TRANSPORTS, VLESS_FLOWS } from '../nodes.ts';

/**
 * The node API (`/node/v1/`, PRODUCT.md section 6): how a node's agent learns what to serve and whom
 * to let in, and reports traffic. Every call carries the node's own token (`authorization: Bearer …`)
 * and the contract version the agent speaks (`x-node-api: MAJOR.MINOR`); replies are the site's
 * envelope. A minor version only adds optional fields, so an agent on an older minor keeps working;
 * another major is refused (400, reason `node_api_version`).
 */
export const NODE_API_VERSION = '1.2';
export const NODE_API_HEADER = 'x-node-api';

/** One inbound as the node's core serves it; `tag` names it in the core's configuration and stats. */
export const nodeInboundSchema = z.object({
  id: z.uuid(),
  tag: z.string(),
  protocol: z.enum(PROTOCOLS),
  port: z.number().int(),
  transport: z.enum(TRANSPORTS),
  path: z.string().nullable(),
  security: z.enum(SECURITIES),
  server_name: z.string().nullable(),
  flow: z.enum(VLESS_FLOWS).nullable(),
  /** REALITY's public key and short id; the private key stays on the node (its agent's file). */
  reality_public_key: z.string().nullable(),
  reality_short_id: z.string().nullable(),
  method: z.enum(SS_METHODS).nullable(),
  /** Shadowsocks 2022's server key (base64). */
  server_key: z.string().nullable(),
});

/** Reply of `GET /node/v1/config` (with an ETag; `if-none-match` answers 304). */
export const nodeConfigSchema = z.object({
  node: z.object({ id: z.uuid(), name: z.string(), host: z.string() }),
  inbounds: z.array(nodeInboundSchema),
  /** How often the agent reports traffic, and pulls when the change stream is down, in seconds. */
  report_interval: z.number().int().positive(),
  pull_interval: z.number().int().positive(),
  /** 1.1: how often the agent sends its live addresses (`online`), in seconds. */
  online_interval: z.number().int().positive().optional(),
});

/**
 * One slot's credential as every inbound of the node takes it: `email` names the user in the core
 * (and in its traffic counters), `uuid` is the VLESS / VMess id, `password` the Trojan password and
 * the Shadowsocks 2022 user key (base64, cut by the node to its method's length).
 */
export const nodeCredentialSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  uuid: z.uuid(),
  password: z.string(),
  /**
   * 1.1: source addresses the node must refuse this credential from, because another device holds the
   * slot (one device per slot); absent or empty: none.
   */
  refused: z.array(z.string()).default([]),
  /**
   * 1.1: when the account's access ends, unix seconds: the node drops the credential then by its own
   * clock, without waiting for the change (null: no end known).
   */
  expires_at: z.number().int().nullable().default(null),
});

export const credentialsQuery = z.object({
  /** The revision the node holds; 0 (or none): the full list. */
  since: z.coerce.number().int().min(0).default(0),
});

/**
 * Reply of `GET /node/v1/credentials?since=REVISION`: the credentials added or changed since that
 * revision (`upsert`) and the slots whose credentials must go (`remove`), or, when `full`, the whole
 * list (the node drops every user not in it). `revision` is what to ask from next time.
 */
export const nodeCredentialsSchema = z.object({
  revision: z.number().int(),
  full: z.boolean(),
  upsert: z.array(nodeCredentialSchema),
  remove: z.array(z.uuid()),
});

const bytes = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/**
 * `POST /node/v1/report`: the bytes each credential moved in a window, and the source addresses
 * each was live from. `sequence` numbers the node's reports, rising by one from a start its agent
 * picks when its state is new (the time in milliseconds, so that a reinstalled node never reuses one):
 * a report whose sequence was applied before changes nothing, so an agent resends until it has an
 * answer.
 */
export const nodeReportRequest = z.object({
  sequence: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  /** The window's start and end, unix seconds. */
  from: z.number().int().nonnegative(),
  to: z.number().int().nonnegative(),
  traffic: z.array(z.object({ id: z.uuid(), upload: bytes, download: bytes })).max(100_000),
  addresses: z
    .array(z.object({ id: z.uuid(), ips: z.array(z.string().max(64)).max(64) }))
    .max(100_000)
    .default([]),
});

/**
 * 1.1, `POST /node/v1/online`: the source addresses each credential is live from on the node now
 * (credentials with none left out), every `online_interval` seconds. Each is a snapshot, so a lost
 * one needs no resending. An agent on 1.0 sends the same list in its reports instead.
 */
export const nodeOnlineRequest = z.object({ addresses: nodeReportRequest.shape.addresses });

/**
 * Reply of a report. Whatever its contents, a report answered is done with (the agent never sends
 * it again): bytes refused now would be refused again.
 */
export const nodeReportReply = z.object({
  /** False when this sequence had been applied before (nothing changed now). */
  applied: z.boolean(),
  sequence: z.number().int(),
  /**
   * 1.2: the credentials whose bytes were not taken because the node does not serve their slots
   * (not on its credential list at the window's start or end); the rest were.
   */
  refused: z.number().int().min(0).optional(),
  /**
   * 1.2: true when the report claimed more bytes than the node's line (its ceiling in the back
   * office) could carry in the report's window: none of its bytes were taken.
   */
  implausible: z.boolean().optional(),
});

/** `POST /node/v1/status`: what the node's machine and core are doing. */
export const nodeStatusRequest = z.object({
  /** The 1, 5 and 15 minute load averages. */
  load: z.tuple([z.number(), z.number(), z.number()]),
  memory: z.object({ total: bytes, used: bytes }),
  agent_version: z.string().max(64),
  core: z.string().max(64),
  uptime: z.number().int().nonnegative(),
});

/**
 * `GET /node/v1/events`: server-sent events. `changed` (data: `{ "revision": N }`) tells the node
 * to pull its credentials (and its config) now; a comment line every 15 s keeps the stream open.
 */
export const NODE_EVENT_CHANGED = 'changed';
