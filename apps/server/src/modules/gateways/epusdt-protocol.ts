import { md5Signature, signatureMatches, sortedFieldsText } from './md5-signature.ts';
import { fenOf } from './yuan.ts';

/**
 * The EPUSDT wire format (assimon/epusdt; BEpusdt speaks it too; V2Board's
 * `app/Payments/EasyPaymentUSDT.php`): JSON bodies signed with MD5 over the non-empty fields but
 * `signature`, sorted by name and joined as `k=v&…`, with the API token appended. Numbers are
 * written as the gateway's Go code writes a float64: the shortest decimal, without exponent.
 */

export interface EpusdtGateway {
  /** The gateway's base URL, where `/api/v1/order/create-transaction` and `/pay/check-status/` are. */
  url: string;
  token: string;
}

type WireValue = string | number | null | undefined;

/** The fields as they are signed: numbers in their shortest decimal form, nothing for null. */
const asText = (fields: Record<string, WireValue>) =>
  Object.fromEntries(
    Object.entries(fields).map(([name, value]) => [
      name,
      typeof value === 'number' ? String(value) : (value ?? ''),
    ]),
  );

/** The text signed: the sorted non-empty fields but `signature`, as `k=v&…`. */
export const epusdtSignedText = (fields: Record<string, WireValue>) =>
  sortedFieldsText(asText(fields), ['signature']);

export const epusdtSign = (fields: Record<string, WireValue>, token: string) =>
  md5Signature(epusdtSignedText(fields), token);

/** Whether the fields carry the signature the token gives them (compared in constant time). */
export const epusdtSignatureValid = (fields: Record<string, WireValue>, token: string) =>
  signatureMatches(String(fields.signature ?? ''), epusdtSign(fields, token));

/** Fen as EPUSDT's `amount`: yuan as a JSON number (two decimals at most). */
export const yuanOf = (fen: number) => fen / 100;

/** A JSON `amount` in yuan as fen, or null when it is not an amount with at most two decimals. */
export function fenOfYuan(amount: unknown): number | null {
  return typeof amount === 'number' || typeof amount === 'string' ? fenOf(String(amount)) : null;
}

/**
 * A USDT amount as we keep it: a decimal with at most 4 places (EPUSDT rounds to 4), without
 * trailing zeros, or null when it is not one.
 */
export function usdtText(amount: unknown): string | null {
  if (typeof amount !== 'number' && typeof amount !== 'string') return null;
  const match = /^(\d{1,9})(?:\.(\d{1,4}))?$/.exec(String(amount).trim());
  if (!match) return null;
  const decimals = (match[2] ?? '').replace(/0+$/, '');
  return `${Number(match[1])}${decimals ? `.${decimals}` : ''}`;
}

/** What create-transaction gave for one of our orders. */
export interface EpusdtTransaction {
  tradeId: string;
  orderId: string;
  /** The USDT the buyer must send, as the gateway's cashier shows it. */
  actualAmount: string;
  paymentUrl: string;
}

/** How long a call to the gateway may take: the buyer's order and inquiry wait for it. */
const CALL_TIMEOUT_MS = 10_000;

const endpoint = (gateway: EpusdtGateway, path: string) => `${gateway.url.replace(/\/+$/, '')}${path}`;

/** A refusal of the gateway's, with its status code and message (401: the signature, so the token). */
export class EpusdtRefusal extends Error {
  override name = 'EpusdtRefusal';
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

/** POSTs a signed body to create-transaction; the reply's data, or an EpusdtRefusal. */
async function postSigned(
  gateway: EpusdtGateway,
  fields: Record<string, WireValue>,
): Promise<Record<string, unknown>> {
  const response = await fetch(endpoint(gateway, '/api/v1/order/create-transaction'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...fields, signature: epusdtSign(fields, gateway.token) }),
    signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
  });
  const text = await response.text();
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new Error(`EPUSDT answered HTTP ${response.status} without JSON`);
  }
  const code = Number(body.status_code ?? response.status);
  if (code !== 200) throw new EpusdtRefusal(code, String(body.message ?? ''));
  return (body.data ?? {}) as Record<string, unknown>;
}

/** Opens a transaction for one of our orders (`order_id`), for `fen` in yuan. */
export async function createEpusdtTransaction(
  gateway: EpusdtGateway,
  order: { orderId: string; fen: number; notifyUrl: string; redirectUrl: string },
): Promise<EpusdtTransaction> {
  const data = await postSigned(gateway, {
    order_id: order.orderId,
    amount: yuanOf(order.fen),
    notify_url: order.notifyUrl,
    redirect_url: order.redirectUrl,
  });
  const actualAmount = usdtText(data.actual_amount);
  const tradeId = typeof data.trade_id === 'string' ? data.trade_id : '';
  const paymentUrl = typeof data.payment_url === 'string' ? data.payment_url : '';
  if (!tradeId || !paymentUrl || actualAmount === null || data.order_id !== order.orderId) {
    throw new Error('EPUSDT answered create-transaction without its trade, amount or page');
  }
  return { tradeId, orderId: order.orderId, actualAmount, paymentUrl };
}

/** A trade's status at the gateway: 1 waiting, 2 paid, 3 expired; null when it knows no such trade. */
export async function epusdtTradeStatus(gateway: EpusdtGateway, tradeId: string): Promise<number | null> {
  const response = await fetch(endpoint(gateway, `/pay/check-status/${encodeURIComponent(tradeId)}`), {
    signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
  });
  if (!response.ok) throw new Error(`EPUSDT answered check-status with HTTP ${response.status}`);
  const body = (await response.json()) as {
    status_code?: unknown;
    data?: { trade_id?: unknown; status?: unknown };
  };
  if (Number(body.status_code) !== 200) return null;
  if (body.data?.trade_id !== tradeId) throw new Error('EPUSDT answered check-status for another trade');
  const status = Number(body.data.status);
  if (!Number.isInteger(status)) throw new Error('EPUSDT answered check-status without a status');
  return status;
}

/**
 * Tells a token the gateway accepts from one it refuses, without opening a transaction: the only
 * signed call is create-transaction, and its signature is checked before its fields, so a signed body
 * that cannot be an order (no notify_url, an amount below the least one) is refused for the signature
 * (401) with a wrong token and for its fields (400) with the right one.
 */
export async function probeEpusdtToken(gateway: EpusdtGateway): Promise<EpusdtRefusal> {
  try {
    await postSigned(gateway, { order_id: 'keytest', amount: 0.01 });
  } catch (error) {
    if (error instanceof EpusdtRefusal) return error;
    throw error;
  }
  throw new Error('EPUSDT accepted a transaction without notify_url');
}

/** The callback's status that means paid. */
export const EPUSDT_PAID = 2;
