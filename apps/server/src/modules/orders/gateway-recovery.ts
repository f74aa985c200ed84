import type { CheckoutDeps } from './checkouts.ts';
import { type FulfilDeps, fulfilPayment } from './fulfilment.ts';
import { providerOf } from './provider.ts';
import { ordersAwaitingPayment } from './repository.ts';

/** How long after its deadline a gateway's order is still asked about: its page may outlive it. */
const ASK_AFTER_DEADLINE_MS = 60 * 60_000;
/** At most this many orders are asked about per run of the orders job; the newest first. */
const ASKED_PER_RUN = 100;

/**
 * The orders job's part for the payment gateways, whose notify may never come (PRODUCT.md section 8):
 * each order still awaiting its payment is asked about at its gateway, and a payment found goes
 * through fulfilPayment like its notify would (whichever comes second changes nothing). A gateway
 * that cannot be asked is skipped until the next run.
 */
export async function recoverGatewayPayments(
  deps: CheckoutDeps & FulfilDeps,
  now: Date,
): Promise<{ found: number; unreachable: number }> {
  const names = (await deps.gateways?.names()) ?? [];
  const awaiting = await ordersAwaitingPayment(deps.db, names, now, {
    graceMs: ASK_AFTER_DEADLINE_MS,
    limit: ASKED_PER_RUN,
  });
  let found = 0;
  let unreachable = 0;
  for (const order of awaiting) {
    const provider = await providerOf(deps, order);
    if (!provider) continue;
    try {
      const payment = await provider.findPayment(order);
      if (!payment) continue;
      const outcome = await fulfilPayment(
        deps,
        { provider: provider.name, orderId: order.id, ...payment },
        now,
      );
      deps.log.info({ order_id: order.id, outcome }, 'payment found by the orders job');
      found += 1;
    } catch (error) {
      deps.log.warn(
        { err: error, order_id: order.id },
        'a payment gateway could not be asked about an order',
      );
      unreachable += 1;
    }
  }
  return { found, unreachable };
}
