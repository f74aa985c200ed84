import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import {
  type GatewayCreateRequest,
  gatewayFormOf,
  type GatewayUpdateRequest,
  type gatewaySchema,
  type gatewayTestSchema,
} from '@skyway/shared/schemas/admin/gateways';
import type { Database } from '../../db/client.ts';
import type { GatewayRow } from '../../db/schema/index.ts';
import { AppError } from '../../http/errors.ts';
import { recordAudit, type StaffActor } from '../audit/repository.ts';
import {
  ALIPAY_OK,
  type AlipayApp,
  alipayPublicKeyPem,
  appPrivateKeyPem,
  callAlipay,
  isAlipayUnreachable,
} from './alipay-protocol.ts';
import { type EpayMerchant, queryEpayOrder } from './epay-protocol.ts';
import { type EpusdtGateway, probeEpusdtToken } from './epusdt-protocol.ts';
import { hasGateways, insertGateway, lockGateway, updateGateway } from './repository.ts';
import { openKeys, requireSecretsKey, sealKeys } from './secrets.ts';

type Gateway = z.infer<typeof gatewaySchema>;

/** A gateway as the back office sees it, and as its audit rows keep it: everything but its keys. */
export function presentGateway(row: GatewayRow): Gateway {
  return {
    id: row.id,
    kind: row.kind,
    names: row.names,
    methods: row.methods,
    position: row.position,
    fee_bps: row.feeBps,
    enabled: row.enabled,
    settings: presentSettings(row),
    keys_set: row.sealedKeys !== '',
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** The settings that are not secret, as the gateway's kind has them. */
function presentSettings(row: GatewayRow): Gateway['settings'] {
  const { settings } = row;
  if (row.kind === 'alipay_f2f') {
    return {
      app_id: settings.app_id ?? '',
      alipay_public_key: settings.alipay_public_key ?? '',
      gateway_url: settings.gateway_url ?? '',
    };
  }
  const url = settings.url ?? '';
  if (row.kind !== 'epay') return { url };
  return { url, pid: settings.pid ?? '', mode: settings.mode === 'api' ? 'api' : 'page' };
}

/** The audit row's picture of a gateway: what the back office shows, without its times. */
const audited = (row: GatewayRow) => {
  const shown: Partial<Gateway> = presentGateway(row);
  delete shown.created_at;
  delete shown.updated_at;
  return shown;
};

export async function createGateway(
  db: Database,
  secretsKey: Buffer | undefined,
  actor: StaffActor,
  request: GatewayCreateRequest,
  now: Date,
): Promise<GatewayRow> {
  const key = requireSecretsKey(secretsKey);
  refuseUnusableKeys(request.kind, request.settings, request.keys);
  const id = randomUUID();
  return db.transaction(async (tx) => {
    const row = await insertGateway(tx, {
      id,
      kind: request.kind,
      ...editableFields(request),
      sealedKeys: sealKeys(key, id, request.keys),
      createdAt: now,
      updatedAt: now,
    });
    await recordAudit(
      tx,
      actor,
      { action: 'gateway.create', targetType: 'gateway', targetId: id, before: null, after: audited(row) },
      now,
    );
    return row;
  });
}

/** The columns staff set, from a create request or an update (whose absent fields stay as they are). */
function editableFields<R extends GatewayCreateRequest | GatewayUpdateRequest>(request: R) {
  return {
    names: request.names as R['names'],
    methods: request.methods as R['methods'],
    position: request.position as R['position'],
    feeBps: request.fee_bps as R['fee_bps'],
    enabled: request.enabled as R['enabled'],
    settings: request.settings as R['settings'],
  };
}

/**
 * The update with its settings, keys and methods read as the gateway's kind has them (the request's
 * schema takes any kind's): anything else is the 400 of a field the request got wrong.
 */
function ofGatewayKind(row: GatewayRow, request: GatewayUpdateRequest): GatewayUpdateRequest {
  const form = gatewayFormOf(row.kind);
  const checked = { ...request };
  for (const field of ['settings', 'keys', 'methods'] as const) {
    if (request[field] === undefined) continue;
    const parsed = form?.[field].safeParse(request[field]);
    if (!parsed?.success) throw new AppError(400, 'field_invalid', { field });
    Object.assign(checked, { [field]: parsed.data });
  }
  return checked;
}

export async function changeGateway(
  db: Database,
  secretsKey: Buffer | undefined,
  actor: StaffActor,
  id: string,
  request: GatewayUpdateRequest,
  now: Date,
): Promise<GatewayRow> {
  const key = request.keys && requireSecretsKey(secretsKey);
  return db.transaction(async (tx) => {
    const before = await lockGateway(tx, id);
    if (!before) throw new AppError(404, 'not_found');
    const change = ofGatewayKind(before, request);
    refuseUnusableKeys(before.kind, change.settings ?? before.settings, change.keys);
    const sealedKeys = key && change.keys && sealKeys(key, id, change.keys);
    const row = await updateGateway(tx, id, {
      ...editableFields(change),
      sealedKeys,
      updatedAt: now,
    });
    await recordAudit(
      tx,
      actor,
      {
        action: 'gateway.update',
        targetType: 'gateway',
        targetId: id,
        before: audited(before),
        after: { ...audited(row), keys_replaced: sealedKeys !== undefined },
      },
      now,
    );
    return row;
  });
}

/** Refuses, as a field of the form, Alipay keys that are not RSA keys (the SDK would fail at each call). */
function refuseUnusableKeys(
  kind: string,
  settings: Record<string, string> | object,
  keys: Record<string, string> | object | undefined,
): void {
  if (kind !== 'alipay_f2f') return;
  const publicKey = (settings as Record<string, string>).alipay_public_key ?? '';
  if (!alipayPublicKeyPem(publicKey)) throw new AppError(400, 'field_invalid', { field: 'settings' });
  const privateKey = keys && (keys as Record<string, string>).private_key;
  if (privateKey !== undefined && !appPrivateKeyPem(privateKey)) {
    throw new AppError(400, 'field_invalid', { field: 'keys' });
  }
}

/**
 * A production server with gateways configured refuses to start without SECRETS_KEY: it could take
 * no payment through them, and their notifies would all be refused.
 */
export async function checkSecretsKey(
  db: Database,
  secretsKey: Buffer | undefined,
  env: string,
): Promise<void> {
  if (env === 'production' && !secretsKey && (await hasGateways(db))) {
    throw new Error(
      'SECRETS_KEY is required with NODE_ENV=production once a payment gateway is configured: set the key its keys were saved with',
    );
  }
}

/** An Epay gateway's merchant: its settings and its keys, opened. */
export function epayMerchantOf(row: GatewayRow, secretsKey: Buffer | undefined): EpayMerchant {
  const keys = openKeys(requireSecretsKey(secretsKey), row.id, row.sealedKeys);
  return { url: row.settings.url ?? '', pid: row.settings.pid ?? '', key: keys.key ?? '' };
}

/** A USDT gateway's base URL and its API token, opened. */
export function epusdtGatewayOf(row: GatewayRow, secretsKey: Buffer | undefined): EpusdtGateway {
  const keys = openKeys(requireSecretsKey(secretsKey), row.id, row.sealedKeys);
  return { url: row.settings.url ?? '', token: keys.token ?? '' };
}

/** An Alipay face-to-face gateway's app: its settings and its private key, opened. */
export function alipayAppOf(row: GatewayRow, secretsKey: Buffer | undefined): AlipayApp {
  const keys = openKeys(requireSecretsKey(secretsKey), row.id, row.sealedKeys);
  return {
    appId: row.settings.app_id ?? '',
    alipayPublicKey: alipayPublicKeyPem(row.settings.alipay_public_key ?? '') ?? '',
    privateKey: appPrivateKeyPem(keys.private_key ?? '') ?? '',
    gatewayUrl: row.settings.gateway_url ?? '',
  };
}

type KeyTest = z.infer<typeof gatewayTestSchema>;
const madeUpOrder = () => `keytest${randomUUID().replaceAll('-', '')}`;

const unreachable = (error: unknown): KeyTest => ({
  result: 'unreachable',
  message: error instanceof Error ? error.message : String(error),
});

/**
 * Tries an Epay gateway's keys: a query for an order that cannot exist must come back "no such
 * order", which only a merchant whose key the aggregator accepted is told.
 */
async function testEpayKeys(row: GatewayRow, secretsKey: Buffer | undefined): Promise<KeyTest> {
  const merchant = epayMerchantOf(row, secretsKey);
  try {
    const answer = await queryEpayOrder(merchant, madeUpOrder());
    if (answer.found) return { result: 'ok', message: 'found' };
    return { result: answer.keysRefused ? 'keys_refused' : 'ok', message: answer.message };
  } catch (error) {
    return unreachable(error);
  }
}

/**
 * Tries a USDT gateway's token with a signed create-transaction that cannot open one (see
 * probeEpusdtToken): refused for its signature (EPUSDT's 401, or a message that names the signature,
 * for implementations with other codes) is a wrong token; refused for its fields, a token the gateway
 * accepts.
 */
async function testEpusdtToken(row: GatewayRow, secretsKey: Buffer | undefined): Promise<KeyTest> {
  try {
    const refusal = await probeEpusdtToken(epusdtGatewayOf(row, secretsKey));
    const signature = refusal.statusCode === 401 || /签名|signature/i.test(refusal.message);
    return { result: signature ? 'keys_refused' : 'ok', message: refusal.message };
  } catch (error) {
    return unreachable(error);
  }
}

/**
 * `alipay.trade.query` for a made-up order: ACQ.TRADE_NOT_EXIST is the app's signature accepted;
 * a refusal of the app or its signature, or an answer Alipay's public key does not check, is the
 * keys refused.
 */
async function testAlipayKeys(row: GatewayRow, secretsKey: Buffer | undefined): Promise<KeyTest> {
  try {
    const answer = await callAlipay(alipayAppOf(row, secretsKey), 'alipay.trade.query', {
      out_trade_no: madeUpOrder(),
    });
    const message = answer.sub_msg ?? answer.msg;
    if (answer.code === ALIPAY_OK || answer.sub_code === 'ACQ.TRADE_NOT_EXIST')
      return { result: 'ok', message };
    // 20000: Alipay's service is unavailable for now, which says nothing of the keys.
    return { result: answer.code === '20000' ? 'unreachable' : 'keys_refused', message };
  } catch (error) {
    return isAlipayUnreachable(error)
      ? unreachable(error)
      : { result: 'keys_refused', message: unreachable(error).message };
  }
}

/** Tries a gateway's keys against the gateway itself, without opening any payment. */
export async function testGatewayKeys(row: GatewayRow, secretsKey: Buffer | undefined): Promise<KeyTest> {
  if (row.kind === 'epusdt') return testEpusdtToken(row, secretsKey);
  if (row.kind === 'alipay_f2f') return testAlipayKeys(row, secretsKey);
  return testEpayKeys(row, secretsKey);
}
