import { setTimeout as delay } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.ts';
import type { OrderRow } from '../../db/schema/index.ts';
import { type GatewayProviders, type PaymentProvider, providerOf } from './provider.ts';
import { claimDueCheckout, markCheckoutClosed } from './repository.ts';

export interface CheckoutDeps {
  db: Database;
  provider: PaymentProvider;
  /** The gateways configured in the back office; none: the site's own provider alone. */
  gateways?: GatewayProviders;
  log: FastifyBaseLogger;
}

/** How long order/create and order/cancel wait for the provider to close the old checkout. */
const CLOSE_WAIT_MS = 3_000;

/** At most this many checkouts are closed per run of the orders job; the rest wait for the next. */
const CHECKOUT_CLOSES_PER_RUN = 100;

/** One attempt at closing an order's checkout; a failure leaves it due, for the orders job. */
async function closeCheckout(deps: CheckoutDeps, order: OrderRow): Promise<boolean> {
  try {
    // A gateway since removed has no checkout left to close.
    await (await providerOf(deps, order))?.closeCheckout(order);
  } catch (error) {
    deps.log.warn(
      { err: error, order_id: order.id },
      'the payment provider could not close a checkout; the orders job will try again',
    );
    return false;
  }
  await markCheckoutClosed(deps.db, order.id);
  return true;
}

/**
 * Closes the checkouts of orders the user or a newer order has just closed, after the transaction
 * that closed them (those without a checkout have none due). The caller's call succeeds whatever the
 * provider does: what could not be closed now is closed by the orders job.
 */
export async function closeCheckouts(deps: CheckoutDeps, closed: OrderRow[]): Promise<void> {
  const closing = (async () => {
    for (const order of closed) {
      if (order.checkoutCloseDueAt) await closeCheckout(deps, order);
    }
  })().catch((error: unknown) =>
    deps.log.warn({ err: error }, 'could not record a closed checkout; the orders job will try again'),
  );
  // A provider that hangs (its client retries for up to ~50 s) must not hold the buyer's call: past
  // this wait the close goes on in the background, and the orders job retries what it leaves due.
  await Promise.race([closing, delay(CLOSE_WAIT_MS, undefined, { ref: false })]);
}

/**
 * The orders job's part: closes the checkouts still due (a provider that could not be reached, an
 * instance that stopped mid-way). A failure ends the run: the provider is likely still unreachable.
 */
export async function closeDueCheckouts(
  deps: CheckoutDeps,
  now: Date,
): Promise<{ closed: number; failed: number }> {
  let closed = 0;
  while (closed < CHECKOUT_CLOSES_PER_RUN) {
    const order = await claimDueCheckout(deps.db, deps.provider.name, now);
    if (!order) break;
    if (!(await closeCheckout(deps, order))) return { closed, failed: 1 };
    closed += 1;
  }
  return { closed, failed: 0 };
}
