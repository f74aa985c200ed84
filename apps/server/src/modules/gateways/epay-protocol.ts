import { md5Signature, signatureMatches, sortedFieldsText } from './md5-signature.ts';
import { yuanText } from './yuan.ts';

/**
 * The Epay (易支付) wire format, as aggregators speak it (V2Board's `app/Payments/EPay.php`): form
 * fields signed with MD5 over the sorted, non-empty fields but `sign` and `sign_type`, joined as
 * `k=v&…`, with the merchant's key appended.
 */

export interface EpayMerchant {
  /** The aggregator's site, where submit.php, mapi.php and api.php are. */
  url: string;
  pid: string;
  key: string;
}

/** The text signed: the sorted non-empty fields, without `sign` and `sign_type`, as `k=v&…`. */
export const epaySignedText = (fields: Record<string, string>) =>
  sortedFieldsText(fields, ['sign', 'sign_type']);

export const epaySign = (fields: Record<string, string>, key: string) =>
  md5Signature(epaySignedText(fields), key);

/** Whether the fields carry the signature the merchant's key gives them (compared in constant time). */
export const epaySignatureValid = (fields: Record<string, string>, key: string) =>
  signatureMatches(fields.sign ?? '', epaySign(fields, key));

/** The fields with their signature, as every request to the aggregator carries them. */
export function epaySigned(fields: Record<string, string>, key: string): Record<string, string> {
  return { ...fields, sign: epaySign(fields, key), sign_type: 'MD5' };
}

const endpoint = (merchant: EpayMerchant, file: string) => `${merchant.url.replace(/\/+$/, '')}/${file}`;

/** A payment the buyer is asked to make through the aggregator. */
export interface EpayPayment {
  type: string;
  outTradeNo: string;
  fen: number;
  name: string;
  notifyUrl: string;
  returnUrl: string;
}

/** A payment's fields, signed, as submit.php and mapi.php both take them. */
const paymentFields = (merchant: EpayMerchant, payment: EpayPayment, more: Record<string, string> = {}) =>
  epaySigned(
    {
      pid: merchant.pid,
      type: payment.type,
      out_trade_no: payment.outTradeNo,
      notify_url: payment.notifyUrl,
      return_url: payment.returnUrl,
      name: payment.name,
      money: yuanText(payment.fen),
      ...more,
    },
    merchant.key,
  );

/** The page the buyer is sent to (submit.php), with every field signed in its query. */
export function epaySubmitUrl(merchant: EpayMerchant, payment: EpayPayment): string {
  return `${endpoint(merchant, 'submit.php')}?${new URLSearchParams(paymentFields(merchant, payment)).toString()}`;
}

/** How long a call to the aggregator may take: the buyer waits for it. */
const CALL_TIMEOUT_MS = 10_000;

/** The aggregator's JSON answer to a call, each field read as text ('' when absent). */
async function answerOf(response: Response, call: string) {
  if (!response.ok) throw new Error(`Epay answered ${call} with HTTP ${response.status}`);
  const body = (await response.json()) as Record<string, unknown>;
  const text = (name: string) => (body[name] === undefined || body[name] === null ? '' : String(body[name]));
  const code = Number(body.code);
  if (!Number.isFinite(code)) throw new Error(`Epay answered ${call} without a code`);
  return { code, text };
}

/**
 * Opens a payment through the API (mapi.php, a signed form POST with the buyer's address): the
 * aggregator's trade number and where the buyer pays, preferring the code a payment app scans
 * (`qrcode`), then its page (`payurl`), then an app link (`urlscheme`). Throws when it cannot be
 * reached or refuses (code other than 1: its message says why).
 */
export async function createEpayApiPayment(
  merchant: EpayMerchant,
  payment: EpayPayment & { clientIp: string },
): Promise<{ tradeNo: string; url: string }> {
  const response = await fetch(endpoint(merchant, 'mapi.php'), {
    method: 'POST',
    body: new URLSearchParams(paymentFields(merchant, payment, { clientip: payment.clientIp, device: 'pc' })),
    signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
  });
  const { code, text } = await answerOf(response, 'the payment');
  if (code !== 1) throw new Error(`Epay refused the payment: ${text('msg')}`);
  const url = text('qrcode') || text('payurl') || text('urlscheme');
  if (!url) throw new Error('Epay opened the payment without a code, page or link to pay at');
  return { tradeNo: text('trade_no'), url };
}

/** What api.php?act=order says of one of our orders. */
export type EpayOrderAnswer =
  | {
      found: true;
      paid: boolean;
      tradeNo: string;
      outTradeNo: string;
      pid: string;
      type: string;
      money: string;
    }
  | { found: false; keysRefused: boolean; message: string };

/**
 * Asks the aggregator about an order (`api.php?act=order`, authenticated by the merchant's key in the
 * query, as the protocol has it). Its code 1 is an order, -1 no such order; any other code is a
 * refusal of the merchant or its key. Throws when it cannot be reached or answers something else.
 */
export async function queryEpayOrder(merchant: EpayMerchant, outTradeNo: string): Promise<EpayOrderAnswer> {
  const query = new URLSearchParams({
    act: 'order',
    pid: merchant.pid,
    key: merchant.key,
    out_trade_no: outTradeNo,
  });
  const response = await fetch(`${endpoint(merchant, 'api.php')}?${query.toString()}`, {
    signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
  });
  const { code, text } = await answerOf(response, 'the order query');
  if (code === 1) {
    return {
      found: true,
      paid: text('status') === '1',
      tradeNo: text('trade_no'),
      outTradeNo: text('out_trade_no'),
      pid: text('pid'),
      type: text('type'),
      money: text('money'),
    };
  }
  return { found: false, keysRefused: code !== -1, message: text('msg') };
}
