import { epaySignatureValid } from '../gateways/epay-protocol.ts';
import { gatewayProviderName } from '../gateways/repository.ts';
import { epayMerchantOf } from '../gateways/service.ts';
import { fenOf } from '../gateways/yuan.ts';
import { type NotifyHandler, notifyOutcomes } from './gateway-notify.ts';

/** The notify's fields worth keeping for the operator (its signature is not). */
const KEPT_FIELDS = ['pid', 'trade_no', 'out_trade_no', 'type', 'name', 'money', 'trade_status'];

/**
 * One asynchronous notify of an Epay gateway (PRODUCT.md section 8). It credits only when signed with
 * the gateway's key, for its merchant, with `trade_status=TRADE_SUCCESS`; then fulfilPayment records
 * the trade number under its unique key in the crediting transaction and checks the amount to the fen
 * against the order (a cancelled or expired order is credited all the same; an underpaid one is not,
 * and waits in the attention queue as any mismatched payment does). Anything refused changes nothing
 * and goes to the attention queue with what was wrong. `taken` is answered `success` (it stops the
 * aggregator's retries), else `fail`: for what no key of ours signed, which it may retry as it likes.
 */
export const handleEpayNotify: NotifyHandler<Record<string, string>> = async (deps, row, fields, now) => {
  const { secretsKey } = deps;
  const merchant = epayMerchantOf(row, secretsKey);
  const provider = gatewayProviderName(row);
  const fen = fenOf(fields.money ?? '');
  const { refuse, credit } = notifyOutcomes(deps, { provider, fields, kept: KEPT_FIELDS, fen }, now);

  if (!epaySignatureValid(fields, merchant.key)) return refuse('bad_signature', false);
  if (fields.pid !== merchant.pid) return refuse('foreign_merchant', false);
  // Signed by our key from here: the aggregator need not send it again.
  if (fields.trade_status !== 'TRADE_SUCCESS') return refuse('wrong_status', true);
  if (!fields.trade_no || !fields.out_trade_no) return refuse('malformed', true);
  return credit({ orderId: fields.out_trade_no, paymentId: fields.trade_no });
};
