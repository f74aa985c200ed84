import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { epaySignatureValid, epaySigned } from '../modules/gateways/epay-protocol.ts';
import { listenOnLoopback, requestText } from './loopback.ts';

/** An order opened through submit.php, as the aggregator keeps it. */
interface EpayWireOrder {
  pid: string;
  trade_no: string;
  out_trade_no: string;
  type: string;
  name: string;
  money: string;
  notify_url: string;
  return_url: string;
  status: 0 | 1;
}

export interface EpayServer {
  /** `http://127.0.0.1:<port>`: the merchant's Epay site. */
  url: string;
  pid: string;
  key: string;
  /** The orders opened through submit.php, by out_trade_no. */
  orders: Map<string, EpayWireOrder>;
  /** Every request received (its path and query), oldest first. */
  requests: { path: string; query: Record<string, string> }[];
  /** The buyer pays: the order is paid at the aggregator, and its notify's fields are returned (not sent). */
  pay(outTradeNo: string): Record<string, string>;
  /** A notify's fields for an order, changed as given, signed with `key` (the merchant's unless given). */
  notifyFields(outTradeNo: string, change?: Record<string, string>, key?: string): Record<string, string>;
  close(): Promise<void>;
}

function send(response: ServerResponse, status: number, body: unknown): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  response.writeHead(status, {
    'content-type': typeof body === 'string' ? 'text/html; charset=utf-8' : 'application/json',
  });
  response.end(text);
}

/**
 * A stand-in Epay (易支付) aggregator on 127.0.0.1 speaking the wire format of the common
 * implementations: submit.php takes a signed page jump (and refuses a bad signature), mapi.php a
 * signed form with the buyer's address (answering the payment's QR code), api.php?act=order
 * answers code 1 with the order, -1 for no such order, -3 for an unknown merchant or a wrong key.
 */
export async function startEpayServer(): Promise<EpayServer> {
  const pid = String(1000 + (randomBytes(2).readUInt16BE() % 9000));
  const key = randomBytes(16).toString('hex');
  const orders = new Map<string, EpayWireOrder>();
  const requests: EpayServer['requests'] = [];

  /** An order opened by a signed submit.php or mapi.php request, kept as the aggregator keeps it. */
  const openOrder = (fields: Record<string, string>) => {
    const order: EpayWireOrder = {
      pid,
      trade_no: `2026${randomBytes(8).toString('hex')}`,
      out_trade_no: fields.out_trade_no ?? '',
      type: fields.type ?? '',
      name: fields.name ?? '',
      money: fields.money ?? '',
      notify_url: fields.notify_url ?? '',
      return_url: fields.return_url ?? '',
      status: 0,
    };
    orders.set(order.out_trade_no, order);
    return order;
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const query = Object.fromEntries(url.searchParams);
    if (url.pathname === '/mapi.php' && request.method === 'POST') {
      // The API's form, recorded with its fields as the query.
      const form = Object.fromEntries(new URLSearchParams(await requestText(request)));
      requests.push({ path: url.pathname, query: form });
      if (form.pid !== pid || !epaySignatureValid(form, key)) {
        return send(response, 200, { code: -1, msg: '签名校验失败' });
      }
      if (!form.clientip) return send(response, 200, { code: -1, msg: '用户IP地址不能为空' });
      const order = openOrder(form);
      return send(response, 200, {
        code: 1,
        msg: '',
        trade_no: order.trade_no,
        qrcode: `${serverUrl}/qrcode/${order.trade_no}`,
      });
    }
    requests.push({ path: url.pathname, query });
    if (url.pathname === '/submit.php') {
      if (query.pid !== pid || !epaySignatureValid(query, key)) return send(response, 200, '签名校验失败');
      openOrder(query);
      return send(response, 200, '<html><body>pay</body></html>');
    }
    if (url.pathname === '/api.php' && query.act === 'order') {
      if (query.pid !== pid) return send(response, 200, { code: -3, msg: 'PID不存在' });
      if (query.key !== key) return send(response, 200, { code: -3, msg: 'KEY校验失败' });
      const order = orders.get(query.out_trade_no ?? '');
      if (!order) return send(response, 200, { code: -1, msg: '订单号不存在' });
      return send(response, 200, {
        code: 1,
        msg: '查询订单号成功！',
        trade_no: order.trade_no,
        out_trade_no: order.out_trade_no,
        type: order.type,
        pid: Number(order.pid),
        name: order.name,
        money: order.money,
        status: order.status,
      });
    }
    return send(response, 404, 'not found');
  };

  const server = createServer((request, response) => void handle(request, response));
  await listenOnLoopback(server, 0);
  const serverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const notifyFields = (outTradeNo: string, change: Record<string, string> = {}, signWith = key) => {
    const order = orders.get(outTradeNo);
    const fields = {
      pid,
      trade_no: order?.trade_no ?? `2026${randomBytes(8).toString('hex')}`,
      out_trade_no: outTradeNo,
      type: order?.type ?? 'alipay',
      name: order?.name ?? outTradeNo,
      money: order?.money ?? '1.00',
      trade_status: 'TRADE_SUCCESS',
      ...change,
    };
    return epaySigned(fields, signWith);
  };

  return {
    url: serverUrl,
    pid,
    key,
    orders,
    requests,
    pay(outTradeNo) {
      const order = orders.get(outTradeNo);
      if (!order) throw new Error(`no order ${outTradeNo} was opened at the stand-in`);
      order.status = 1;
      return notifyFields(outTradeNo);
    },
    notifyFields,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
