import { alipayNotifySigned } from '../gateways/alipay-protocol.ts';
import { gatewayProviderName } from '../gateways/repository.ts';
import { alipayAppOf } from '../gateways/service.ts';
import { fenOf } from '../gateways/yuan.ts';
import { ALIPAY_PAID } from './alipay.ts';
import { type NotifyHandler, notifyOutcomes } from './gateway-notify.ts';

/** The notify's fields worth keeping for the operator (its signature is not). */
const KEPT_FIELDS = [
  'notify_id',
  'app_id',
  'trade_no',
  'out_trade_no',
  'total_amount',
  'receipt_amount',
  'trade_status',
  'gmt_payment',
  'buyer_id',
  'seller_id',
];

/**
 * One asynchronous notify of an Alipay face-to-face gateway (PRODUCT.md section 8). It credits only
 * when Alipay's public key checks its RSA2 signature (checkNotifySignV2), for the gateway's app, with
 * a paid trade status; then fulfilPayment records the trade number under its unique key in the
 * crediting transaction and checks the amount to the fen against the order. Anything refused changes
 * nothing and goes to the attention queue with what was wrong. `taken` is answered `success` (it
 * stops Alipay's retries), else `fail`: for what Alipay did not sign.
 */
export const handleAlipayNotify: NotifyHandler<Record<string, string>> = async (deps, row, fields, now) => {
  const { secretsKey } = deps;
  const app = alipayAppOf(row, secretsKey);
  const provider = gatewayProviderName(row);
  const fen = fenOf(fields.total_amount ?? '');
  const { refuse, credit } = notifyOutcomes(deps, { provider, fields, kept: KEPT_FIELDS, fen }, now);

  if (!alipayNotifySigned(app, fields)) return refuse('bad_signature', false);
  // Signed by Alipay from here: it need not send it again, whatever it says.
  if (fields.app_id !== app.appId) return refuse('foreign_merchant', true);
  if (!ALIPAY_PAID.has(fields.trade_status ?? '')) return refuse('wrong_status', true);
  if (!fields.trade_no || !fields.out_trade_no) return refuse('malformed', true);
  return credit({ orderId: fields.out_trade_no, paymentId: fields.trade_no });
};
