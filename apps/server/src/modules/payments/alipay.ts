import type { GatewayRow, OrderRow } from '../../db/schema/index.ts';
import { ALIPAY_OK, type AlipayAnswer, alipayTime, callAlipay } from '../gateways/alipay-protocol.ts';
import { gatewayProviderName } from '../gateways/repository.ts';
import { alipayAppOf } from '../gateways/service.ts';
import { fenOf, yuanText } from '../gateways/yuan.ts';
import { type PaymentProvider, type ProviderPayment, RefundRefused } from '../orders/provider.ts';

/** Where an Alipay face-to-face gateway's asynchronous notify comes (notify_url), one per gateway. */
export const alipayNotifyPath = (gatewayId: string) => `/pay/alipay/${gatewayId}/notify`;

/** The trade statuses of a paid trade (TRADE_FINISHED: paid, and past its refund period). */
export const ALIPAY_PAID = new Set(['TRADE_SUCCESS', 'TRADE_FINISHED']);

/** Alipay's sub_code for "no trade with this out_trade_no" (a QR code never scanned makes none). */
const TRADE_NOT_EXIST = 'ACQ.TRADE_NOT_EXIST';

const text = (answer: AlipayAnswer, field: string) => {
  const value = answer[field];
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
};
const refusal = (answer: AlipayAnswer) =>
  `${answer.sub_code ?? answer.code}: ${answer.sub_msg ?? answer.msg}`;

/** The payment an alipay.trade.query answer shows for the order, or null while it is unpaid. */
function paymentOf(answer: AlipayAnswer, order: OrderRow): ProviderPayment | null {
  if (answer.code !== ALIPAY_OK) {
    if (answer.sub_code === TRADE_NOT_EXIST) return null;
    throw new Error(`Alipay refused the trade query: ${refusal(answer)}`);
  }
  if (!ALIPAY_PAID.has(text(answer, 'trade_status'))) return null;
  if (text(answer, 'out_trade_no') !== order.id) {
    throw new Error(`Alipay answered for order ${text(answer, 'out_trade_no')}, not ${order.id}`);
  }
  const amount = fenOf(text(answer, 'total_amount'));
  const tradeNo = text(answer, 'trade_no');
  if (amount === null || !tradeNo)
    throw new Error('Alipay answered a paid trade without its number or amount');
  return { paymentId: tradeNo, amount, currency: 'CNY' };
}

/**
 * One Alipay face-to-face (当面付) gateway behind the provider port: alipay.trade.precreate gives the
 * QR code the buyer scans (a computer shows it; a phone opens it in the Alipay app), with our order
 * id as out_trade_no; payments arrive through its notify (alipay-notify.ts) or, when that never
 * comes, through alipay.trade.query asked by order/query and the orders job.
 */
export function createAlipayProvider(row: GatewayRow, secretsKey: Buffer | undefined): PaymentProvider {
  const app = () => alipayAppOf(row, secretsKey);
  return {
    name: gatewayProviderName(row),
    methods: row.methods.includes('alipay') ? ['alipay'] : [],
    async createCheckout({ order, returnUrl }) {
      if (order.payMethod !== 'alipay') throw new Error(`Alipay face-to-face takes no ${order.payMethod}`);
      const answer = await callAlipay(
        app(),
        'alipay.trade.precreate',
        {
          out_trade_no: order.id,
          total_amount: yuanText(order.amount),
          // The order id alone: Alipay shows it as it is, whatever the buyer's language.
          subject: order.id,
          // The QR code stops taking payments when the order does.
          time_expire: alipayTime(order.latestPayAt),
        },
        { notify_url: new URL(alipayNotifyPath(row.id), returnUrl).toString() },
      );
      const qrCode = text(answer, 'qr_code');
      if (answer.code !== ALIPAY_OK || !qrCode) {
        throw new Error(`Alipay refused the precreate: ${refusal(answer)}`);
      }
      return { ref: order.id, url: qrCode };
    },
    async findPayment(order) {
      return paymentOf(await callAlipay(app(), 'alipay.trade.query', { out_trade_no: order.id }), order);
    },
    async closeCheckout(order) {
      const answer = await callAlipay(app(), 'alipay.trade.close', { out_trade_no: order.id });
      if (answer.code === ALIPAY_OK || answer.sub_code === TRADE_NOT_EXIST) return;
      // Paid meanwhile (or finished): fulfilment credits that payment; there is nothing to close.
      if (answer.sub_code === 'ACQ.TRADE_STATUS_ERROR') return;
      throw new Error(`Alipay did not close the trade: ${refusal(answer)}`);
    },
    async refund(payment, key) {
      const answer = await callAlipay(app(), 'alipay.trade.refund', {
        trade_no: payment.providerPaymentId,
        refund_amount: yuanText(payment.amount),
        // Asked again with the same out_request_no, Alipay refunds once.
        out_request_no: key,
      });
      if (answer.code === ALIPAY_OK) return { id: `${text(answer, 'trade_no')}:${key}`, status: 'succeeded' };
      // 40004 is Alipay's "business failed" (already refunded, too old, balance short…): its word is final.
      if (answer.code === '40004') throw new RefundRefused(answer.sub_msg ?? answer.msg);
      throw new Error(`Alipay could not be asked for the refund: ${refusal(answer)}`);
    },
  };
}
