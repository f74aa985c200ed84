import { EPUSDT_PAID, epusdtSignatureValid, fenOfYuan, usdtText } from '../gateways/epusdt-protocol.ts';
import { gatewayProviderName } from '../gateways/repository.ts';
import { epusdtGatewayOf } from '../gateways/service.ts';
import { findProviderOrder } from '../orders/repository.ts';
import { type NotifyHandler, notifyOutcomes } from './gateway-notify.ts';

/** A callback's fields as its JSON has them: text and numbers (anything else is left out). */
export type UsdtCallback = Record<string, string | number>;

/** The callback's fields worth keeping for the operator (its signature is not). */
const KEPT_FIELDS = [
  'trade_id',
  'order_id',
  'amount',
  'actual_amount',
  'token',
  'block_transaction_id',
  'status',
];

/**
 * One callback of a USDT gateway speaking EPUSDT's API (PRODUCT.md section 8). It credits only when
 * signed with the gateway's token, with `status` 2 (paid), for an order opened through this gateway,
 * with the trade that order was opened with, and the USDT amount its buyer was shown; then
 * fulfilPayment records the trade id under its unique key in the crediting transaction and checks the
 * amount in yuan to the fen against the order (one short is a payment waiting for the operator, as for
 * every provider). Anything refused changes nothing and goes to the attention queue with what was
 * wrong. `taken` is answered `ok` (it stops the gateway's retries), else `fail`: for what no token of
 * ours signed.
 */
export const handleUsdtNotify: NotifyHandler<UsdtCallback> = async (deps, row, fields, now) => {
  const { db, secretsKey } = deps;
  const provider = gatewayProviderName(row);
  const fen = fenOfYuan(fields.amount);
  const { refuse, credit } = notifyOutcomes(deps, { provider, fields, kept: KEPT_FIELDS, fen }, now);

  if (!epusdtSignatureValid(fields, epusdtGatewayOf(row, secretsKey).token)) {
    return refuse('bad_signature', false);
  }
  // Signed by our token from here: the gateway need not send it again.
  if (Number(fields.status) !== EPUSDT_PAID) return refuse('wrong_status', true);
  const usdt = usdtText(fields.actual_amount);
  const tradeId = typeof fields.trade_id === 'string' ? fields.trade_id : '';
  const orderId = typeof fields.order_id === 'string' ? fields.order_id : '';
  if (fen === null || usdt === null || !tradeId || !orderId) return refuse('malformed', true);
  const order = await findProviderOrder(db, provider, orderId);
  if (!order) return refuse('unknown_order', true);
  if (order.providerRef !== tradeId) return refuse('other_trade', true);
  if (usdtText(order.usdtAmount) !== usdt) return refuse('wrong_usdt_amount', true);
  return credit({ orderId, paymentId: tradeId });
};
