import { isPayMethod, type PayMethod } from '@skyway/shared/plans';
import type { GatewayMethod } from '@skyway/shared/schemas/admin/gateways';
import type { GatewayRow } from '../../db/schema/index.ts';
import { createEpayApiPayment, epaySubmitUrl, queryEpayOrder } from '../gateways/epay-protocol.ts';
import { fenOf } from '../gateways/yuan.ts';
import { gatewayProviderName } from '../gateways/repository.ts';
import { epayMerchantOf } from '../gateways/service.ts';
import type { PaymentProvider } from '../orders/provider.ts';

/** Where an Epay gateway's asynchronous notify comes (notify_url): outside the calls, one per gateway. */
export const epayNotifyPath = (gatewayId: string) => `/pay/epay/${gatewayId}/notify`;

/** The buy page's methods and the aggregator's `type` for each (`usdt` where the aggregator lists it). */
const EPAY_TYPES: Partial<Record<PayMethod, GatewayMethod>> = {
  alipay: 'alipay',
  wechat_pay: 'wxpay',
  usdt: 'usdt',
};

/** The buy page's methods a gateway serves, in the buy page's order. */
function payMethodsOf(row: GatewayRow): PayMethod[] {
  return (Object.keys(EPAY_TYPES) as PayMethod[]).filter((method) => {
    const type = EPAY_TYPES[method];
    return type !== undefined && row.methods.includes(type);
  });
}

/**
 * One Epay gateway behind the provider port: the buyer is sent to its submit.php (our order id as
 * out_trade_no, the amount in yuan) or, in the API mode, shown the code or page its mapi.php gives;
 * payments arrive through its notify (epay-notify.ts) or,
 * when that never comes, through api.php?act=order asked by order/query and the orders job.
 */
export function createEpayProvider(row: GatewayRow, secretsKey: Buffer | undefined): PaymentProvider {
  const merchant = () => epayMerchantOf(row, secretsKey);
  return {
    name: gatewayProviderName(row),
    methods: payMethodsOf(row),
    async createCheckout({ order, returnUrl, clientIp }) {
      const type = isPayMethod(order.payMethod) ? EPAY_TYPES[order.payMethod] : undefined;
      if (!type) throw new Error(`Epay takes no ${order.payMethod}`);
      const payment = {
        type,
        outTradeNo: order.id,
        fen: order.amount,
        // The order id alone: aggregators sign and show it as it is, whatever the buyer's language.
        name: order.id,
        notifyUrl: new URL(epayNotifyPath(row.id), returnUrl).toString(),
        returnUrl,
      };
      if (row.settings.mode !== 'api') return { ref: order.id, url: epaySubmitUrl(merchant(), payment) };
      const { url } = await createEpayApiPayment(merchant(), { ...payment, clientIp });
      return { ref: order.id, url };
    },
    async findPayment(order) {
      const own = merchant();
      const answer = await queryEpayOrder(own, order.id);
      if (!answer.found) {
        if (answer.keysRefused) throw new Error(`Epay refused the merchant's keys: ${answer.message}`);
        return null;
      }
      if (!answer.paid) return null;
      if (answer.pid !== own.pid || answer.outTradeNo !== order.id) {
        throw new Error(`Epay answered for merchant ${answer.pid}, order ${answer.outTradeNo}`);
      }
      const amount = fenOf(answer.money);
      if (amount === null || !answer.tradeNo)
        throw new Error('Epay answered a paid order without its trade or amount');
      return { paymentId: answer.tradeNo, amount, currency: 'CNY' };
    },
    // Epay has no call to close a payment page: one paid after all is credited like any other.
    async closeCheckout() {},
  };
}
