import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { epusdtSign, epusdtSignatureValid } from '../modules/gateways/epusdt-protocol.ts';
import { listenOnLoopback, requestText } from './loopback.ts';

/** The stand-in's rate: yuan for one USDT. */
export const TEST_USDT_RATE = 7.2;

/** A transaction opened through create-transaction, as the gateway keeps it. */
interface EpusdtWireTransaction {
  trade_id: string;
  order_id: string;
  amount: number;
  actual_amount: number;
  token: string;
  notify_url: string;
  redirect_url: string;
  status: 1 | 2 | 3;
}

export interface EpusdtServer {
  /** `http://127.0.0.1:<port>`: the gateway's base URL. */
  url: string;
  /** The API token the gateway signs and checks with. */
  token: string;
  /** The transactions opened, by order_id. */
  transactions: Map<string, EpusdtWireTransaction>;
  /** Every request received (its method, path and JSON body), oldest first. */
  requests: { method: string; path: string; body: Record<string, unknown> | null }[];
  /** The buyer pays: the trade is paid at the gateway, and its callback's body is returned (not sent). */
  pay(orderId: string): Record<string, string | number>;
  /** A callback's body for an order, changed as given, signed with `token` (the gateway's unless given). */
  callback(
    orderId: string,
    change?: Record<string, string | number>,
    token?: string,
  ): Record<string, string | number>;
  close(): Promise<void>;
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

async function jsonOf(request: IncomingMessage): Promise<Record<string, unknown> | null> {
  const text = await requestText(request);
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** A TRON address's look: T and 33 base58 characters. */
const walletAddress = () =>
  `T${randomBytes(24)
    .toString('base64url')
    .replace(/[-_0OIl]/g, 'x')
    .slice(0, 33)}`;

/**
 * A stand-in USDT gateway on 127.0.0.1 speaking EPUSDT's wire format (assimon/epusdt): create-
 * transaction checks the signature first (401 `签名认证错误`), then its fields (400), then opens a
 * trade converting yuan to USDT at TEST_USDT_RATE (4 decimals); check-status answers a trade's status
 * without a signature, 10008 for no such trade. Errors come in the JSON envelope with HTTP 200, as
 * EPUSDT sends them.
 */
export async function startEpusdtServer(): Promise<EpusdtServer> {
  const token = randomBytes(16).toString('hex');
  const transactions = new Map<string, EpusdtWireTransaction>();
  const requests: EpusdtServer['requests'] = [];
  const fail = (response: ServerResponse, code: number, message: string) =>
    send(response, 200, { status_code: code, message, data: null, request_id: '' });
  const succeed = (response: ServerResponse, data: unknown) =>
    send(response, 200, { status_code: 200, message: 'success', data, request_id: '' });

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const body = request.method === 'POST' ? await jsonOf(request) : null;
    requests.push({ method: request.method ?? '', path: url.pathname, body });
    if (request.method === 'POST' && url.pathname === '/api/v1/order/create-transaction') {
      const fields = (body ?? {}) as Record<string, string | number>;
      if (!body || !('signature' in body) || !epusdtSignatureValid(fields, token)) {
        return fail(response, 401, '签名认证错误');
      }
      const amount = Number(fields.amount);
      if (typeof fields.order_id !== 'string' || !fields.order_id || fields.order_id.length > 32) {
        return fail(response, 400, '订单号为必填项');
      }
      if (!(amount > 0.01)) return fail(response, 400, '支付金额值必须大于0.01');
      if (typeof fields.notify_url !== 'string' || !/^https?:\/\//.test(fields.notify_url)) {
        return fail(response, 400, '异步回调网址为必填项');
      }
      if (transactions.has(fields.order_id)) return fail(response, 10002, '支付交易已存在，请勿重复创建');
      const trade: EpusdtWireTransaction = {
        trade_id: `2026${randomBytes(8).toString('hex')}`,
        order_id: fields.order_id,
        amount,
        actual_amount: Math.round((amount / TEST_USDT_RATE) * 10_000) / 10_000,
        token: walletAddress(),
        notify_url: fields.notify_url,
        redirect_url: typeof fields.redirect_url === 'string' ? fields.redirect_url : '',
        status: 1,
      };
      transactions.set(trade.order_id, trade);
      return succeed(response, {
        trade_id: trade.trade_id,
        order_id: trade.order_id,
        amount: trade.amount,
        actual_amount: trade.actual_amount,
        token: trade.token,
        expiration_time: Math.floor(Date.now() / 1000) + 600,
        payment_url: `${serverUrl}/pay/checkout-counter/${trade.trade_id}`,
      });
    }
    const status = /^\/pay\/check-status\/([^/]+)$/.exec(url.pathname);
    if (request.method === 'GET' && status) {
      const trade = [...transactions.values()].find((one) => one.trade_id === status[1]);
      if (!trade) return fail(response, 10008, '订单不存在');
      return succeed(response, { trade_id: trade.trade_id, status: trade.status });
    }
    if (request.method === 'GET' && url.pathname.startsWith('/pay/checkout-counter/')) {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return response.end('<html><body>USDT</body></html>');
    }
    return send(response, 404, { status_code: 404, message: 'not found' });
  };

  const server = createServer((request, response) => {
    handle(request, response).catch(() => send(response, 500, { status_code: 400, message: '系统错误' }));
  });
  await listenOnLoopback(server, 0);
  const serverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const callback: EpusdtServer['callback'] = (orderId, change = {}, signWith = token) => {
    const trade = transactions.get(orderId);
    const fields: Record<string, string | number> = {
      trade_id: trade?.trade_id ?? `2026${randomBytes(8).toString('hex')}`,
      order_id: orderId,
      amount: trade?.amount ?? 1,
      actual_amount: trade?.actual_amount ?? 0.1389,
      token: trade?.token ?? walletAddress(),
      block_transaction_id: randomBytes(32).toString('hex'),
      status: 2,
      ...change,
    };
    return { ...fields, signature: epusdtSign(fields, signWith) };
  };

  return {
    url: serverUrl,
    token,
    transactions,
    requests,
    pay(orderId) {
      const trade = transactions.get(orderId);
      if (!trade) throw new Error(`no transaction for order ${orderId} was opened at the stand-in`);
      trade.status = 2;
      return callback(orderId, { block_transaction_id: `block-${trade.trade_id}` });
    },
    callback,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
