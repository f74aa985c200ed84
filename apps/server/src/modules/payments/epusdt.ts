import type { GatewayRow } from '../../db/schema/index.ts';
import { createEpusdtTransaction, EPUSDT_PAID, epusdtTradeStatus } from '../gateways/epusdt-protocol.ts';
import { gatewayProviderName } from '../gateways/repository.ts';
import { epusdtGatewayOf } from '../gateways/service.ts';
import type { PaymentProvider } from '../orders/provider.ts';

/** Where a USDT gateway's callback comes (notify_url): outside the calls, one per gateway. */
export const usdtNotifyPath = (gatewayId: string) => `/pay/usdt/${gatewayId}/notify`;

/**
 * One USDT gateway speaking EPUSDT's API behind the provider port: create-transaction opens a trade
 * for our order (its amount in yuan; the gateway converts it to USDT), whose id is the order's
 * provider ref and whose USDT amount the order keeps, as the buyer was shown it. Payments arrive
 * through its callback (usdt-notify.ts) or, when that never comes, through check-status asked by
 * order/query and the orders job.
 */
export function createEpusdtProvider(row: GatewayRow, secretsKey: Buffer | undefined): PaymentProvider {
  const gateway = () => epusdtGatewayOf(row, secretsKey);
  return {
    name: gatewayProviderName(row),
    methods: row.methods.includes('usdt') ? ['usdt'] : [],
    async createCheckout({ order, returnUrl }) {
      if (order.payMethod !== 'usdt') throw new Error(`a USDT gateway takes no ${order.payMethod}`);
      const trade = await createEpusdtTransaction(gateway(), {
        orderId: order.id,
        fen: order.amount,
        notifyUrl: new URL(usdtNotifyPath(row.id), returnUrl).toString(),
        redirectUrl: returnUrl,
      });
      return { ref: trade.tradeId, url: trade.paymentUrl, usdtAmount: trade.actualAmount };
    },
    async findPayment(order) {
      if (!order.providerRef) return null;
      const status = await epusdtTradeStatus(gateway(), order.providerRef);
      if (status !== EPUSDT_PAID) return null;
      // check-status says no more than paid: what was paid is what the trade was opened for.
      return { paymentId: order.providerRef, amount: order.amount, currency: order.currency };
    },
    // EPUSDT has no call to close a trade: one paid after all is credited like any other.
    async closeCheckout() {},
  };
}
