import type { FastifyBaseLogger } from 'fastify';
import type { Language } from '@skyway/shared/languages';
import { toUnixSeconds } from '@skyway/shared/dates';
import {
  CURRENCY,
  type CreatedOrder,
  type Order,
  type OrderCreateRequest,
  type OrderList,
  type PayOption,
  type Period,
  type PlanList,
} from '@skyway/shared/plans';
import { priceOrder } from '@skyway/shared/coupons';
import { orderAmount } from '@skyway/shared/money';
import type { CouponCheck, CouponCheckRequest } from '@skyway/shared/schemas/coupons';
import type { PageRequest } from '@skyway/shared/paging';
import type { Database } from '../../db/client.ts';
import type { OrderRow } from '../../db/schema/index.ts';
import type { SignedInUser } from '../sessions/repository.ts';
import { AppError } from '../../http/errors.ts';
import { inAccountTransaction } from '../access/access.ts';
import type { Counters } from '../limits/counters.ts';
import { readSettings } from '../settings/repository.ts';
import { couponFor } from '../coupons/service.ts';
import { closeCheckouts } from './checkouts.ts';
import { fulfilPayment } from './fulfilment.ts';
import { newOrderId } from './order-ids.ts';
import { findPlan, readPlans } from './plans-repository.ts';
import type { PaymentConfirmations } from './payment-confirmation.ts';
import { isPayable, presentOrder } from './present.ts';
import { FREE_PROVIDER, type GatewayProviders, type PaymentProvider, providerOf } from './provider.ts';
import {
  attachCheckout,
  cancelPayableOrder,
  closeUnpaidOrders,
  findUserOrder,
  insertOrder,
  userOrdersPage,
} from './repository.ts';

export interface OrderDeps {
  db: Database;
  provider: PaymentProvider;
  /** The gateways configured in the back office; none: the site's own provider alone. */
  gateways?: GatewayProviders;
  counters: Counters;
  log: FastifyBaseLogger;
  confirmations: PaymentConfirmations;
}

/** Orders a user may create in an hour: each one opens a checkout at the provider. */
export const ORDERS_PER_HOUR = 30;

/**
 * The plans, and every way to pay them: the site's own provider's methods first (as before gateways,
 * so its buyers keep their default), then each enabled gateway's in position order, named in the
 * buyer's language.
 */
export async function listPlans(
  deps: Pick<OrderDeps, 'db' | 'provider' | 'gateways'>,
  language: Language,
): Promise<PlanList> {
  const { db, provider } = deps;
  const [settings, plans, offers] = await Promise.all([
    readSettings(db),
    readPlans(db),
    deps.gateways?.offers() ?? [],
  ]);
  const own: PayOption[] = provider.methods.map((method) => ({
    pay_method: method,
    gateway_id: null,
    name: null,
    fee_bps: 0,
  }));
  const gateways: PayOption[] = offers.flatMap((offer) =>
    offer.methods.map((method) => ({
      pay_method: method,
      gateway_id: offer.gatewayId,
      name: offer.names[language],
      fee_bps: offer.feeBps,
    })),
  );
  return {
    currency: CURRENCY,
    max_connections: settings.max_connections,
    plans,
    pay_methods: provider.methods,
    pay_options: [...own, ...gateways],
  };
}

/** The provider that will take the order's money, and its fee: the gateway named, else the site's own. */
async function checkoutProvider(
  deps: OrderDeps,
  request: OrderCreateRequest,
): Promise<{ provider: PaymentProvider; feeBps: number }> {
  if (request.gateway_id) {
    const gateway = await deps.gateways?.forCheckout(request.gateway_id, request.pay_method);
    if (!gateway) throw new AppError(400, 'field_invalid', { field: 'gateway_id' });
    return gateway;
  }
  if (!deps.provider.methods.includes(request.pay_method)) {
    throw new AppError(400, 'field_invalid', { field: 'pay_method' });
  }
  return { provider: deps.provider, feeBps: 0 };
}

/** The plan of a period and its price for these connections, each checked against the settings. */
async function pricedPlan(db: Database, request: { period: Period; connections: number }) {
  const [settings, plan] = await Promise.all([readSettings(db), findPlan(db, request.period)]);
  if (!plan) throw new AppError(400, 'field_invalid', { field: 'period' });
  if (request.connections > settings.max_connections) {
    throw new AppError(400, 'field_invalid', { field: 'connections' });
  }
  return { settings, plan, price: orderAmount(plan.unit_price, request.connections) };
}

/**
 * A new order at the server's price (unit price × connections, snapshotted), less a coupon's
 * discount, plus the gateway's fee on what is left, to be paid with one of the provider's methods (its
 * checkout offers that one only), replacing the user's open one (whose checkout is closed at the
 * provider, so it cannot be paid as well, and whose coupon use is given back), with a checkout at
 * the provider. If the provider cannot open a checkout the order is cancelled and the caller told to
 * try again. An order that comes to nothing (a 100 % coupon) is paid at once through fulfilment, with
 * no provider and no checkout.
 */
export async function createOrder(
  deps: OrderDeps,
  user: SignedInUser,
  request: OrderCreateRequest,
  context: { language: Language; returnUrl: (orderId: string) => string; clientIp: string; now: Date },
): Promise<CreatedOrder> {
  const { db, counters } = deps;
  const { now } = context;
  const { settings, plan, price } = await pricedPlan(db, request);
  const { provider, feeBps } = await checkoutProvider(deps, request);
  const limit = await counters.hit(`orders:user:${user.id}`, 60 * 60);
  if (limit.count > ORDERS_PER_HOUR)
    throw new AppError(429, 'too_many_requests', { retryAfter: limit.resetIn });

  // Under the account's lock: two order/create calls at once replace one another in turn. The
  // coupon's row is locked after it (a coupon refused undoes the replacing), and held until the order
  // holding its use is written.
  const { order, replaced, priced } = await inAccountTransaction(db, user.id, now, async ({ tx }) => {
    const replaced = await closeUnpaidOrders(tx, user.id, now);
    const coupon = request.coupon_code
      ? await couponFor(
          tx,
          user.id,
          request.coupon_code,
          { period: plan.period, connections: request.connections, price },
          now,
          { lock: true },
        )
      : null;
    // The gateway's fee is part of the order's amount: what the buyer pays, and what its notify must match.
    const priced = priceOrder(price, coupon?.terms ?? null, feeBps);
    const inserted = await insertOrder(tx, {
      id: newOrderId(now),
      userId: user.id,
      period: plan.period,
      months: plan.months,
      days: plan.days,
      connections: request.connections,
      unitPrice: plan.unit_price,
      amount: priced.amount,
      couponId: coupon?.id ?? null,
      couponCode: coupon?.code ?? null,
      discount: priced.discount,
      currency: CURRENCY,
      payMethod: request.pay_method,
      provider: priced.amount === 0 ? FREE_PROVIDER : provider.name,
      createdAt: now,
      latestPayAt: new Date(now.getTime() + settings.order_pay_minutes * 60_000),
    });
    return { order: inserted, replaced, priced };
  });
  await closeCheckouts(deps, replaced);
  const created = {
    order_id: order.id,
    amount: order.amount,
    discount: priced.discount,
    fee: priced.fee,
    latest_pay_time: toUnixSeconds(order.latestPayAt),
  };

  if (order.provider === FREE_PROVIDER) {
    // Nothing to pay: credited now, by the same path as any payment (once, with its ledger row).
    const outcome = await fulfilPayment(
      deps,
      { provider: FREE_PROVIDER, orderId: order.id, paymentId: order.id, amount: 0, currency: CURRENCY },
      now,
    );
    deps.log.info({ order_id: order.id, outcome }, 'free order credited');
    return { ...created, checkout_url: '', paid: outcome === 'credited' };
  }

  let checkout;
  try {
    checkout = await provider.createCheckout({
      order,
      returnUrl: context.returnUrl(order.id),
      language: context.language,
      email: user.email,
      clientIp: context.clientIp,
    });
  } catch (error) {
    deps.log.error({ err: error, order_id: order.id }, 'the payment provider could not open a checkout');
    await cancelPayableOrder(db, user.id, order.id, now);
    throw new AppError(500, 'payment_unavailable');
  }
  await attachCheckout(db, order.id, checkout);
  return { ...created, checkout_url: checkout.url, paid: false };
}

/** Coupon checks an account, and an address, may make in COUPON_CHECK_WINDOW_SECONDS: enough to fix a typo, too few to guess. */
export const COUPON_CHECKS_PER_USER = 20;
export const COUPON_CHECKS_PER_ADDRESS = 60;
export const COUPON_CHECK_WINDOW_SECONDS = 10 * 60;

/**
 * The buy page's preview of a coupon: the price before and after it, or the refusal with its reason,
 * judged as order/create would judge it now (order/create judges it again, under the coupon's lock).
 */
export async function checkCoupon(
  deps: Pick<OrderDeps, 'db' | 'counters'>,
  user: SignedInUser,
  request: CouponCheckRequest,
  context: { clientIp: string; now: Date },
): Promise<CouponCheck> {
  const { db, counters } = deps;
  for (const [key, max] of [
    [`coupons:check:user:${user.id}`, COUPON_CHECKS_PER_USER],
    [`coupons:check:ip:${context.clientIp}`, COUPON_CHECKS_PER_ADDRESS],
  ] as const) {
    const limit = await counters.hit(key, COUPON_CHECK_WINDOW_SECONDS);
    if (limit.count > max) throw new AppError(429, 'too_many_requests', { retryAfter: limit.resetIn });
  }
  const { plan, price } = await pricedPlan(db, request);
  const coupon = await couponFor(
    db,
    user.id,
    request.code,
    { period: plan.period, connections: request.connections, price },
    context.now,
  );
  const { discount } = priceOrder(price, coupon.terms, 0);
  return { code: coupon.code, price, discount, discounted: price - discount };
}

export async function listOrders(
  db: Database,
  user: SignedInUser,
  page: PageRequest,
  now: Date,
): Promise<OrderList> {
  const { rows, total } = await userOrdersPage(db, user.id, {
    limit: page.size,
    offset: (page.page - 1) * page.size,
  });
  return { total, list: rows.map((row) => presentOrder(row, now)) };
}

async function ownOrder(db: Database, user: SignedInUser, orderId: string): Promise<OrderRow> {
  const order = await findUserOrder(db, user.id, orderId);
  if (!order) throw new AppError(404, 'order_not_found');
  return order;
}

/**
 * How often the provider is asked about one order by order/query, whatever the buyer's page does (the
 * scan-to-pay dialog asks every 2 s): a lost notify is still found within seconds, and a gateway is
 * not asked at the pace of every open page.
 */
export const PROVIDER_ASKED_EVERY_SECONDS = 5;

/** Whether the provider may be asked about the order now: once per window, across instances. */
async function mayAskProvider(counters: Counters, orderId: string): Promise<boolean> {
  const asked = await counters.hit(`orders:asked:${orderId}`, PROVIDER_ASKED_EVERY_SECONDS);
  return asked.count === 1;
}

/**
 * The order with its status read fresh: while it is not paid, the provider is asked (at most once in
 * PROVIDER_ASKED_EVERY_SECONDS), and a payment it reports goes through the same fulfilment as its
 * notification would (whichever comes first credits; the other changes nothing). A provider that
 * cannot be reached leaves the stored status.
 */
export async function queryOrder(
  deps: OrderDeps,
  user: SignedInUser,
  orderId: string,
  now: Date,
): Promise<Order> {
  const { db } = deps;
  let order = await ownOrder(db, user, orderId);
  const provider = order.status !== 'paid' && order.providerRef ? await providerOf(deps, order) : null;
  if (provider && (await mayAskProvider(deps.counters, order.id))) {
    try {
      const payment = await provider.findPayment(order);
      if (payment) {
        const outcome = await fulfilPayment(
          deps,
          { provider: provider.name, orderId: order.id, ...payment },
          now,
        );
        deps.log.info({ order_id: order.id, outcome }, 'payment found by order query');
        order = await ownOrder(db, user, orderId);
      }
    } catch (error) {
      deps.log.warn(
        { err: error, order_id: order.id },
        'the payment provider could not be asked about an order',
      );
    }
  }
  return presentOrder(order, now);
}

/** Cancels an order that can still be paid, and closes its checkout; any other order is a 409. */
export async function cancelOrder(
  deps: OrderDeps,
  user: SignedInUser,
  orderId: string,
  now: Date,
): Promise<void> {
  const order = await ownOrder(deps.db, user, orderId);
  const cancelled = isPayable(order, now)
    ? await cancelPayableOrder(deps.db, user.id, order.id, now)
    : undefined;
  if (!cancelled) throw new AppError(409, 'order_not_payable');
  await closeCheckouts(deps, [cancelled]);
}
