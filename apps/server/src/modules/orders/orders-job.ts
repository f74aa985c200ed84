import { applyDueDowngrades } from '../access/repository.ts';
import { deactivateLapsedSlots } from '../access/slots.ts';
import { type CheckoutDeps, closeDueCheckouts } from './checkouts.ts';
import type { FulfilDeps } from './fulfilment.ts';
import { recoverGatewayPayments } from './gateway-recovery.ts';
import { expireOverdueOrders } from './repository.ts';
import { recordJobRun } from '../operations/job-runs-repository.ts';

export const ORDERS_JOB = 'orders';

export interface OrdersJobResult {
  /** Unpaid orders past their deadline, now expired. */
  expired: number;
  /** Downgrades whose time came, now the accounts' connections. */
  downgraded: number;
  /** Device slots whose account has no access left for them (expired, revoked, downgraded), now inactive. */
  slotsDeactivated: number;
  /** Checkouts of closed orders closed at the provider now, after an earlier attempt failed. */
  checkoutsClosed: number;
  /** 1 when the provider could not close one (the rest wait for the next run), else 0. */
  checkoutsFailed: number;
  /** Payments the gateways reported when asked, their notify never having come (or not yet). */
  paymentsFound: number;
  /** Orders whose gateway could not be asked this run. */
  gatewaysUnreachable: number;
}

/**
 * Keeps stored order and connection states true over time. The calls already read an overdue order
 * as expired and a due downgrade as applied; this writes it down, and stops the device slots of
 * access that ended with time (the changes that end access stop theirs at once). Each step changes a row only while
 * it still qualifies, so several instances may run it at once. Then it closes the provider checkouts of closed orders
 * that could not be closed at the time, each claimed by one instance, and asks the payment gateways
 * about the orders whose notify has not come.
 */
export async function runOrdersJob(deps: CheckoutDeps & FulfilDeps, now: Date): Promise<OrdersJobResult> {
  const { db } = deps;
  const startedMs = performance.now();
  const expired = await expireOverdueOrders(db, now);
  const downgraded = await applyDueDowngrades(db, now);
  const slotsDeactivated = await deactivateLapsedSlots(db, now);
  // Last: with the provider unreachable, its attempt may take a while.
  const checkouts = await closeDueCheckouts(deps, now);
  const recovered = await recoverGatewayPayments(deps, now);
  const result = {
    expired,
    downgraded,
    slotsDeactivated,
    checkoutsClosed: checkouts.closed,
    checkoutsFailed: checkouts.failed,
    paymentsFound: recovered.found,
    gatewaysUnreachable: recovered.unreachable,
  };
  const finishedAt = new Date(now.getTime() + (performance.now() - startedMs));
  await recordJobRun(db, { name: ORDERS_JOB, startedAt: now, finishedAt, result });
  return result;
}
