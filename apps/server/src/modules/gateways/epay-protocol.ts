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

/** The page the buyer is sent to (submit.php), with every field signed in its query. */
export function epaySubmitUrl(
  merchant: EpayMerchant,
  payment: {
    type: string;
    outTradeNo: string;
    fen: number;
    name: string;
    notifyUrl: string;
    returnUrl: string;
  },
): string {
  const fields = epaySigned(
    {
      pid: merchant.pid,
      type: payment.type,
      out_trade_no: payment.outTradeNo,
      notify_url: payment.notifyUrl,
      return_url: payment.returnUrl,
      name: payment.name,
      money: yuanText(payment.fen),
    },
    merchant.key,
  );
  return `${endpoint(merchant, 'submit.php')}?${new URLSearchParams(fields).toString()}`;
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

/** How long a query to the aggregator may take: the buyer's inquiry waits for it. */
const QUERY_TIMEOUT_MS = 10_000;

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
    signal: AbortSignal.timeout(QUERY_TIMEOUT_MS),
  });
  if (!response.ok) throw new Error(`Epay answered the order query with HTTP ${response.status}`);
  const body = (await response.json()) as Record<string, unknown>;
  const text = (name: string) => (body[name] === undefined || body[name] === null ? '' : String(body[name]));
  const code = Number(body.code);
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
  if (!Number.isFinite(code)) throw new Error('Epay answered the order query without a code');
  return { found: false, keysRefused: code !== -1, message: text('msg') };
}
