import { createSign, createVerify, generateKeyPairSync, type KeyObject, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { listenOnLoopback, requestText } from './loopback.ts';

/** A trade as Alipay keeps it: made by precreate, in being once the buyer scans its QR code. */
interface AlipayWireTrade {
  out_trade_no: string;
  trade_no: string;
  total_amount: string;
  subject: string;
  notify_url: string;
  time_expire: string;
  qr_code: string;
  /** null until the buyer scans the code (Alipay knows no trade before). */
  trade_status: null | 'WAIT_BUYER_PAY' | 'TRADE_SUCCESS' | 'TRADE_CLOSED';
  gmt_payment: string;
  /** Refunds by out_request_no: the amount each gave back. */
  refunds: Map<string, string>;
}

/** One request to the gateway: its method, every parameter and its business content. */
interface AlipayWireRequest {
  method: string;
  params: Record<string, string>;
  biz: Record<string, string>;
}

export interface AlipayServer {
  /** `http://127.0.0.1:<port>/gateway.do`: the OpenAPI gateway. */
  gatewayUrl: string;
  appId: string;
  /** The app's key pair as Alipay's key tool gives it: PKCS#1 private key, base64 without PEM lines. */
  appPrivateKey: string;
  /** Alipay's public key as its site shows it: SPKI, base64 without PEM lines. */
  alipayPublicKey: string;
  /** The trades precreated, by out_trade_no. */
  trades: Map<string, AlipayWireTrade>;
  /** Every request whose signature checked, oldest first. */
  requests: AlipayWireRequest[];
  /** The sub_code the next refunds are refused with (Alipay's 40004), or null to refund. */
  refuseRefunds: { sub_code: string; sub_msg: string } | null;
  /** The buyer scans the QR code: the trade is in being, waiting for payment. */
  scan(outTradeNo: string): void;
  /** The buyer pays: the trade is paid at Alipay, and its notify's fields are returned (not sent). */
  pay(outTradeNo: string): Record<string, string>;
  /** A notify's fields for a trade, changed as given, signed with `key` (Alipay's unless given). */
  notifyFields(outTradeNo: string, change?: Record<string, string>, key?: KeyObject): Record<string, string>;
  close(): Promise<void>;
}

/** What Alipay signs and checks: the sorted fields but the excluded ones, as `k=v&…`. */
function signedText(fields: Record<string, string>, excluded: string[]): string {
  return Object.keys(fields)
    .filter((name) => !excluded.includes(name) && fields[name] !== '')
    .sort()
    .map((name) => `${name}=${fields[name]}`)
    .join('&');
}

const rsa2 = (text: string, key: KeyObject) =>
  createSign('RSA-SHA256').update(text, 'utf8').sign(key, 'base64');

/** China's time, as Alipay writes it. */
const chinaTime = (at = new Date()) =>
  new Date(at.getTime() + 8 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');

/** A new RSA key pair as node:crypto makes it. */
export const rsaKeyPair = () => generateKeyPairSync('rsa', { modulusLength: 2048 });

const formOf = async (request: IncomingMessage): Promise<Record<string, string>> =>
  Object.fromEntries(new URLSearchParams(await requestText(request)));

/**
 * A stand-in for Alipay's OpenAPI gateway on 127.0.0.1, speaking its wire format: a form POST with
 * the common parameters (app_id, method, charset, sign_type=RSA2, timestamp, version, notify_url) in
 * the query and biz_content in the body, signed by the app's private key (RSA2 over every sorted
 * parameter but `sign`), which it checks with the app's public key; each answer is
 * `{"<method with underscores>_response": {code, msg, sub_code, sub_msg, …}, "sign": …}`, signed
 * over the exact text of the answer object with Alipay's private key. It knows
 * alipay.trade.precreate, query, close and refund, and builds Alipay's signed notifies.
 */
export async function startAlipayServer(): Promise<AlipayServer> {
  const appId = `2021${String(1_000_000_000_000 + randomBytes(4).readUInt32BE())}`.slice(0, 16);
  const app = rsaKeyPair();
  const alipay = rsaKeyPair();
  const trades = new Map<string, AlipayWireTrade>();
  const requests: AlipayWireRequest[] = [];
  const sellerId = `2088${randomBytes(6).readUIntBE(0, 6).toString().padStart(12, '0').slice(0, 12)}`;

  const answer = (
    response: ServerResponse,
    method: string,
    content: Record<string, string>,
    signed = true,
  ) => {
    const key = `${method.replaceAll('.', '_')}_response`;
    const body = JSON.stringify(content);
    const sign = signed ? `,"sign":"${rsa2(body, alipay.privateKey)}"` : '';
    response.writeHead(200, { 'content-type': 'text/html;charset=utf-8' });
    response.end(`{"${key}":${body}${sign}}`);
  };
  const ok = (extra: Record<string, string> = {}) => ({ code: '10000', msg: 'Success', ...extra });
  const failure = (code: string, msg: string) => (sub_code: string, sub_msg: string) => ({
    code,
    msg,
    sub_code,
    sub_msg,
  });
  const businessFailed = failure('40004', 'Business Failed');
  const invalidArguments = failure('40002', 'Invalid Arguments');
  const notExist = () => businessFailed('ACQ.TRADE_NOT_EXIST', '交易不存在');

  const handlers: Record<
    string,
    (biz: Record<string, string>, params: Record<string, string>) => Record<string, string>
  > = {
    'alipay.trade.precreate': (biz, params) => {
      const existing = trades.get(biz.out_trade_no ?? '');
      if (existing?.trade_status === 'TRADE_SUCCESS')
        return businessFailed('ACQ.TRADE_HAS_SUCCESS', '交易已被支付');
      const trade: AlipayWireTrade = {
        out_trade_no: biz.out_trade_no ?? '',
        trade_no: `2026${Date.now()}${randomBytes(6).toString('hex')}`.slice(0, 28),
        total_amount: biz.total_amount ?? '',
        subject: biz.subject ?? '',
        notify_url: params.notify_url ?? '',
        time_expire: biz.time_expire ?? '',
        qr_code: `https://qr.alipay.com/bax0${randomBytes(10).toString('hex')}`,
        trade_status: null,
        gmt_payment: '',
        refunds: new Map(),
      };
      trades.set(trade.out_trade_no, trade);
      return ok({ out_trade_no: trade.out_trade_no, qr_code: trade.qr_code });
    },
    'alipay.trade.query': (biz) => {
      const trade = trades.get(biz.out_trade_no ?? '');
      if (!trade?.trade_status) return notExist();
      return ok({
        trade_no: trade.trade_no,
        out_trade_no: trade.out_trade_no,
        buyer_logon_id: 'buy***@example.com',
        trade_status: trade.trade_status,
        total_amount: trade.total_amount,
        buyer_pay_amount: trade.trade_status === 'TRADE_SUCCESS' ? trade.total_amount : '0.00',
        send_pay_date: trade.gmt_payment,
      });
    },
    'alipay.trade.close': (biz) => {
      const trade = trades.get(biz.out_trade_no ?? '');
      if (!trade?.trade_status) return notExist();
      if (trade.trade_status === 'TRADE_SUCCESS')
        return businessFailed('ACQ.TRADE_STATUS_ERROR', '交易状态不合法');
      trade.trade_status = 'TRADE_CLOSED';
      return ok({ trade_no: trade.trade_no, out_trade_no: trade.out_trade_no });
    },
    'alipay.trade.refund': (biz) => {
      const trade = [...trades.values()].find((one) => one.trade_no === biz.trade_no);
      if (!trade?.trade_status) return notExist();
      if (trade.trade_status !== 'TRADE_SUCCESS')
        return businessFailed('ACQ.TRADE_STATUS_ERROR', '交易状态不合法');
      const again = trade.refunds.get(biz.out_request_no ?? '');
      const result = (fundChange: 'Y' | 'N') =>
        ok({
          trade_no: trade.trade_no,
          out_trade_no: trade.out_trade_no,
          buyer_logon_id: 'buy***@example.com',
          fund_change: fundChange,
          refund_fee: [...trade.refunds.values()].reduce((sum, one) => sum + Number(one), 0).toFixed(2),
        });
      if (again !== undefined) return result('N');
      if (refusal.current) return businessFailed(refusal.current.sub_code, refusal.current.sub_msg);
      const refunded = [...trade.refunds.values()].reduce((sum, one) => sum + Number(one), 0);
      if (Number(biz.refund_amount) + refunded > Number(trade.total_amount) + 1e-9) {
        return businessFailed('ACQ.REFUND_AMT_NOT_EQUAL_TOTAL', '退款金额超限');
      }
      trade.refunds.set(biz.out_request_no ?? '', biz.refund_amount ?? '');
      return result('Y');
    },
  };
  const refusal: { current: AlipayServer['refuseRefunds'] } = { current: null };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/gateway.do' || request.method !== 'POST') {
      response.writeHead(404);
      return response.end();
    }
    const params = { ...Object.fromEntries(url.searchParams), ...(await formOf(request)) };
    const method = params.method ?? '';
    const valid =
      params.sign_type === 'RSA2' &&
      createVerify('RSA-SHA256')
        .update(signedText(params, ['sign']), 'utf8')
        .verify(app.publicKey, params.sign ?? '', 'base64');
    if (params.app_id !== appId) {
      // An app it does not know is answered unsigned: Alipay signs with the key it keeps for each app.
      return answer(response, method, invalidArguments('isv.invalid-app-id', '无效的AppID参数'), false);
    }
    if (!valid) {
      return answer(
        response,
        method,
        invalidArguments('isv.invalid-signature', '验签出错，建议检查签名字符串或签名私钥与应用公钥是否匹配'),
      );
    }
    const biz = JSON.parse(params.biz_content ?? '{}') as Record<string, string>;
    requests.push({ method, params, biz });
    const run = handlers[method];
    if (!run) {
      return answer(response, method, invalidArguments('isv.invalid-method', '不存在的方法名'));
    }
    return answer(response, method, run(biz, params));
  };

  const server = createServer((request, response) => void handle(request, response));
  await listenOnLoopback(server, 0);
  const gatewayUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/gateway.do`;

  const notifyFields = (
    outTradeNo: string,
    change: Record<string, string> = {},
    signWith = alipay.privateKey,
  ) => {
    const trade = trades.get(outTradeNo);
    const amount = trade?.total_amount ?? '1.00';
    const fields: Record<string, string> = {
      notify_time: chinaTime(),
      notify_type: 'trade_status_sync',
      notify_id: randomBytes(16).toString('hex'),
      app_id: appId,
      charset: 'utf-8',
      version: '1.0',
      sign_type: 'RSA2',
      trade_no: trade?.trade_no ?? `2026${randomBytes(10).toString('hex')}`,
      out_trade_no: outTradeNo,
      buyer_id: '2088102177846880',
      seller_id: sellerId,
      trade_status: 'TRADE_SUCCESS',
      total_amount: amount,
      receipt_amount: amount,
      buyer_pay_amount: amount,
      subject: trade?.subject ?? outTradeNo,
      gmt_create: chinaTime(),
      gmt_payment: trade?.gmt_payment || chinaTime(),
      fund_bill_list: JSON.stringify([{ amount, fundChannel: 'ALIPAYACCOUNT' }]),
      ...change,
    };
    // Alipay signs a notify over its sorted non-empty fields but sign and sign_type.
    return { ...fields, sign: rsa2(signedText(fields, ['sign', 'sign_type']), signWith) };
  };

  return {
    gatewayUrl,
    appId,
    appPrivateKey: app.privateKey.export({ format: 'der', type: 'pkcs1' }).toString('base64'),
    alipayPublicKey: alipay.publicKey.export({ format: 'der', type: 'spki' }).toString('base64'),
    trades,
    requests,
    get refuseRefunds() {
      return refusal.current;
    },
    set refuseRefunds(value) {
      refusal.current = value;
    },
    scan(outTradeNo) {
      const trade = trades.get(outTradeNo);
      if (!trade) throw new Error(`no trade ${outTradeNo} was precreated at the stand-in`);
      trade.trade_status = 'WAIT_BUYER_PAY';
    },
    pay(outTradeNo) {
      const trade = trades.get(outTradeNo);
      if (!trade) throw new Error(`no trade ${outTradeNo} was precreated at the stand-in`);
      trade.trade_status = 'TRADE_SUCCESS';
      trade.gmt_payment = chinaTime();
      return notifyFields(outTradeNo);
    },
    notifyFields,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
