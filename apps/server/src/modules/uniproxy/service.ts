import { createHash } from 'node:crypto';
import type { Database } from '../../db/client.ts';
import type { InboundRow, NodeRow } from '../../db/schema/index.ts';
import { AppError } from '../../http/errors.ts';
import { receiveReport } from '../node-api/reports.ts';
import { nodeCredentials, PULL_INTERVAL_SECONDS, REPORT_INTERVAL_SECONDS } from '../node-api/service.ts';
import { enabledInbounds } from '../nodes/repository.ts';
import type { UniProxyType } from './auth.ts';
import { nextPushSequence, slotNumbers, slotsByNumber } from './repository.ts';
import type { UniProxyConfig, UniProxyUser, UniProxyUsers } from './shapes.ts';

/** The ETag of a reply: a hash of the very bytes sent (quoted, as Xboard sends it). */
export const etagOf = (body: string) => `"${createHash('sha256').update(body).digest('base64url')}"`;

/**
 * Whether the program holds this reply already. V2bX and XrayR send back the ETag they were given;
 * like Xboard, any `if-none-match` that contains it matches (a weak `W/"…"` or a list too).
 */
export const holdsAlready = (ifNoneMatch: string | undefined, etag: string) =>
  ifNoneMatch !== undefined && ifNoneMatch.includes(etag.slice(1, -1));

/**
 * The node's inbound a program of this node type runs: its first enabled inbound of that protocol in
 * the operator's order (the order `/node/v1/config` lists them in). None: 404 naming `node_type`. An
 * inbound these programs cannot run as we serve it is refused (400 `uniproxy_unsupported`) rather than
 * served half-working:
 * - REALITY: V2bX and XrayR take its private key from the panel, and ours stays on the node;
 * - Shadowsocks 2022: they make each user's key as the base64 of the first 16 or 32 characters of
 *   the user's `uuid` (V2bX `core/xray/ss.go`, `core/sing/user.go`; XrayR `checkShadowsocksPassword`;
 *   Xboard `Helper::uuidToBase64`), while a slot's key is 32 random bytes cut to the method's length
 *   (`ssUserKey`): bytes that no text's first characters can be, so the node would hold keys that the
 *   customers' links do not.
 */
export async function servedInbound(db: Database, node: NodeRow, type: UniProxyType): Promise<InboundRow> {
  const inbound = (await enabledInbounds(db, node.id)).find((row) => row.protocol === type);
  if (!inbound) throw new AppError(404, 'not_found', { field: 'node_type' });
  if (inbound.protocol === 'shadowsocks' || inbound.security === 'reality') {
    throw new AppError(400, 'uniproxy_unsupported', { field: 'node_type' });
  }
  return inbound;
}

/**
 * `config`: the inbound as Xboard's `ServerService::buildNodeConfig` gives it and V2bX
 * (`api/panel/node.go`) and XrayR (`api/newV2board/model.go`) parse it. TLS certificates are the
 * program's own (its `CertConfig`), as with Xboard.
 */
export function uniproxyConfig(node: NodeRow, inbound: InboundRow): UniProxyConfig {
  const network = inbound.transport as UniProxyConfig['network'];
  const tls = inbound.security === 'tls' ? 1 : 0;
  const serverName = inbound.serverName ?? node.host;
  return {
    protocol: inbound.protocol as UniProxyConfig['protocol'],
    listen_ip: '0.0.0.0',
    server_port: inbound.port,
    network,
    // Never empty: V2bX builds no transport at all from an empty one, and fails on it for Trojan.
    networkSettings:
      network === 'ws'
        ? { path: inbound.path ?? '/' }
        : network === 'grpc'
          ? { serviceName: inbound.path ?? '' }
          : {},
    host: node.host,
    server_name: tls ? serverName : '',
    tls,
    tls_settings: tls ? { server_name: serverName, allow_insecure: false } : {},
    ...(inbound.protocol === 'vless' ? { flow: inbound.flow ?? '' } : {}),
    routes: [],
    base_config: { push_interval: REPORT_INTERVAL_SECONDS, pull_interval: PULL_INTERVAL_SECONDS },
  };
}

/**
 * The one user of a node that admits no one: V2bX and XrayR keep the users they hold when a list is
 * empty (V2bX `node/task.go`: `if len(newU) == 0 { return nil }`; XrayR: "users is null"), so that the
 * last customer revoked would stay on the node. With it the list is never empty, and they drop the
 * others. Its credential is derived from the node's token hash (which only the database holds), so
 * no one can guess it, and changes when the token is rotated; its id, 0, is no slot's.
 */
function placeholderUser(node: NodeRow): UniProxyUser {
  const hex = createHash('sha256').update(`uniproxy-placeholder:${node.tokenHash}`).digest('hex');
  const variant = ((parseInt(hex.slice(16, 17), 16) & 0x3) | 0x8).toString(16);
  const uuid = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  return { id: 0, uuid, speed_limit: 0, device_limit: 0 };
}

/**
 * `user`: the credentials the node admits now (`nodeCredentials`' whole list, the rule our own agent
 * gets), each under its slot's integer `number`, with the one secret the program uses for the node
 * type in `uuid`: the VLESS / VMess id, or the Trojan password. In id order, so that the reply, and its
 * ETag, change only when the list does. No speed or device limit.
 */
export async function uniproxyUsers(
  db: Database,
  node: NodeRow,
  type: UniProxyType,
  now: Date,
): Promise<UniProxyUsers> {
  const { upsert } = await nodeCredentials(db, node, 0, now);
  const numbers = await slotNumbers(
    db,
    upsert.map((credential) => credential.id),
  );
  const users: UniProxyUser[] = [];
  for (const credential of upsert) {
    const number = numbers.get(credential.id);
    // A slot deleted between the two reads.
    if (number === undefined) continue;
    users.push({
      id: number,
      uuid: type === 'trojan' ? credential.password : credential.uuid,
      speed_limit: 0,
      device_limit: 0,
    });
  }
  users.sort((a, b) => a.id - b.id);
  if (users.length === 0) users.push(placeholderUser(node));
  return { users };
}

const isBytes = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;

/**
 * A push body, `{ "<user id>": [upload, download], … }` (V2bX `ReportUserTraffic`, XrayR
 * `ReportUserTraffic`): what is not an object is refused (400 `body_invalid`); an entry that is not a
 * positive integer id with two byte counts is skipped, as Xboard's `processTraffic` skips it.
 */
export function pushedTraffic(body: unknown): Map<number, { upload: number; download: number }> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new AppError(400, 'body_invalid');
  }
  const traffic = new Map<number, { upload: number; download: number }>();
  for (const [key, value] of Object.entries(body)) {
    if (!/^[1-9]\d{0,15}$/.test(key) || !Array.isArray(value) || value.length !== 2) continue;
    const [upload, download] = value as unknown[];
    if (!isBytes(upload) || !isBytes(download) || (upload === 0 && download === 0)) continue;
    const id = Number(key);
    if (Number.isSafeInteger(id)) traffic.set(id, { upload, download });
  }
  return traffic;
}

/**
 * A push into the ledger, through `receiveReport` like our own agent's reports: one report per push,
 * its window the push interval up to now, charged at the node's rate, bytes of slots the node does
 * not admit refused and counted for staff, and a push of more than the node's line could carry taken
 * not at all. These programs number nothing, so the sequence is the server's (`nextPushSequence`): a
 * push the program sends again (a lost reply) counts again, as it does in Xboard. Bytes of ids that
 * name no slot are dropped. Answers what became of it (nothing when no id named a slot).
 */
export async function receivePush(
  db: Database,
  node: NodeRow,
  traffic: Map<number, { upload: number; download: number }>,
  now: Date,
): Promise<{ implausible: boolean; refused: number }> {
  const slots = await slotsByNumber(db, [...traffic.keys()]);
  const moved = [...traffic].flatMap(([number, bytes]) => {
    const id = slots.get(number);
    return id ? [{ id, ...bytes }] : [];
  });
  if (moved.length === 0) return { implausible: false, refused: 0 };
  const to = Math.floor(now.getTime() / 1000);
  return receiveReport(
    db,
    node,
    {
      sequence: await nextPushSequence(db),
      from: to - REPORT_INTERVAL_SECONDS,
      to,
      traffic: moved,
      addresses: [],
    },
    now,
  );
}
