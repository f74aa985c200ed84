import { randomBytes } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DAY_SECONDS } from '@skyway/shared/plans';
import { signParams } from '@skyway/shared/signing';
import { orders, paymentEvents, payments, users } from '../../db/schema/index.ts';
import { runOrdersJob } from '../orders/orders-job.ts';
import {
  randomId,
  startStripeApi,
  type StripeApi,
  stripeEvent,
  stripeSignature,
  type WireSession,
} from '../../testing/stripe-api.ts';
import { later, newClientAddress, signedInUser, startTestApp, useTestApp } from '../../testing/test-app.ts';
import { PROVIDER_ASKED_EVERY_SECONDS } from '../orders/service.ts';
import { testDatabaseKind } from '../../testing/test-database.ts';
import { resetSetting, writeSetting } from '../settings/repository.ts';
import { createStripeProvider } from './stripe.ts';
import { fulfilDeps } from '../../testing/payments.ts';

const run = randomBytes(4).toString('hex');
const SECRET_KEY = `sk_test_${run}${randomBytes(8).toString('hex')}`;
const WEBHOOK_SECRET = `whsec_${randomBytes(16).toString('hex')}`;
// The spec's MD5 signing is on, to show that Stripe's webhook is exempt from it.
const SIGNING_SECRET = `signing-${run}`;
const PUBLIC_URL = 'https://vpn.example.com';
const MONTH = 31 * DAY_SECONDS;
const NOTIFY = '/web/pay/stripe/notify';
const STRIPE_ENV = {
  PAYMENT_PROVIDER: 'stripe',
  STRIPE_SECRET_KEY: SECRET_KEY,
  STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
  STRIPE_PAYMENT_METHODS: 'card,alipay,wechat_pay',
  PUBLIC_URL,
  ORDERS_EVERY_MINUTES: '0',
};

describe('Stripe Checkout and its webhook', () => {
  let api: StripeApi;
  let ip: string;
  let monthPrice: number;

  beforeAll(async () => {
    api = await startStripeApi({ secretKey: SECRET_KEY });
  });
  afterAll(() => api.close());
  const t = useTestApp(() => ({ ...STRIPE_ENV, STRIPE_API_URL: api.url, SIGNATURE_SECRET: SIGNING_SECRET }));
  beforeAll(async () => {
    const plans = (await call('/web/plan/list')).json().data.plans as {
      period: string;
      unit_price: number;
    }[];
    const month = plans.find((plan) => plan.period === 'month');
    if (!month) throw new Error('no month plan');
    monthPrice = month.unit_price;
  });
  beforeEach(() => {
    ip = newClientAddress();
  });

  /** A site call, signed like the browser client signs it. */
  function call(url: string, payload: Record<string, unknown> = {}, token?: string) {
    const params = { ...payload, t: Math.floor(Date.now() / 1000) };
    return t.app.inject({
      method: 'POST',
      url,
      payload: { ...params, s: signParams(params, SIGNING_SECRET) },
      headers: token ? { authorization: token } : {},
      remoteAddress: ip,
    });
  }

  /** A delivery of Stripe's: exactly these bytes, with this signature header. */
  const deliver = (payload: string, signature = stripeSignature(payload, WEBHOOK_SECRET), app = t.app) =>
    app.inject({
      method: 'POST',
      url: NOTIFY,
      payload,
      headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signature },
      remoteAddress: '3.18.12.63',
    });

  /** A buyer whose access runs 10 more days at `connections`, so a purchase of the same size adds exactly a month. */
  async function buyer(connections = 2) {
    const { user, token } = await signedInUser(t.database);
    const expireAt = new Date((Math.floor(Date.now() / 1000) + 10 * DAY_SECONDS) * 1000);
    await t.database.db.update(users).set({ expireAt, connections }).where(eq(users.id, user.id));
    return { user, token, expireUser: expireAt.getTime() / 1000 };
  }

  async function createOrder(token: string, connections = 2, extra: Record<string, unknown> = {}) {
    const res = await call(
      '/web/order/create',
      { period: 'month', connections, pay_method: 'card', ...extra },
      token,
    );
    expect(res.json()).toMatchObject({ code: 200 });
    const data = res.json().data as { order_id: string; amount: number; checkout_url: string };
    const [row] = await t.database.db.select().from(orders).where(eq(orders.id, data.order_id));
    if (!row?.providerRef) throw new Error('the order has no checkout');
    return { ...data, sessionId: row.providerRef };
  }

  /** The session as Stripe reports it once paid, without telling the local API (order/query would find it). */
  const paidSession = (sessionId: string, paymentIntent = randomId('pi_test')): WireSession => ({
    ...api.session(sessionId),
    payment_status: 'paid',
    status: 'complete',
    payment_intent: paymentIntent,
  });

  const userInfo = async (token: string) =>
    (await call('/web/user/info', {}, token)).json().data as {
      expire_user: number;
      subscribe_type: number;
      connections: number;
    };
  const orderStatus = async (token: string, orderId: string) =>
    (await call('/web/order/query', { order_id: orderId }, token)).json().data.status as string;
  const paymentsOf = (orderId: string) =>
    t.database.db.select().from(payments).where(eq(payments.orderId, orderId));
  const eventsOf = (orderId: string) =>
    t.database.db.select().from(paymentEvents).where(eq(paymentEvents.orderId, orderId));

  it('opens a Checkout Session at the server price, with the order id, idempotency key and methods', async () => {
    const { user, token } = await buyer(3);
    const before = Math.floor(Date.now() / 1000);
    // A client-sent amount is not a field of the call: it is dropped, the plan's price is used.
    const created = await createOrder(token, 3, { amount: 1 });
    const { order_id: orderId } = created;
    expect(created.amount).toBe(monthPrice * 3);

    const request = api.requests
      .filter((r) => r.method === 'POST' && r.path === '/v1/checkout/sessions')
      .at(-1);
    if (!request) throw new Error('no checkout request');
    expect(request.headers.authorization).toBe(`Bearer ${SECRET_KEY}`);
    expect(request.headers['idempotency-key']).toBe(`checkout-${orderId}`);
    expect(request.headers['content-type']).toContain('application/x-www-form-urlencoded');
    const returnUrl = `${PUBLIC_URL}/buy?order_id=${orderId}`;
    expect(request.body).toMatchObject({
      mode: 'payment',
      // The buyer's choice only (card here), not every configured method.
      allowed_payment_method_types: ['card'],
      line_items: [
        {
          price_data: {
            currency: 'cny',
            unit_amount: String(monthPrice),
            product_data: { name: 'Skyway — 1 month' },
          },
          quantity: '3',
        },
      ],
      client_reference_id: orderId,
      metadata: { order_id: orderId },
      payment_intent_data: { metadata: { order_id: orderId } },
      customer_email: user.email,
      success_url: returnUrl,
      cancel_url: returnUrl,
      locale: 'en',
    });
    expect(request.body).not.toHaveProperty('payment_method_options');
    // Stripe refuses a session that expires within 30 minutes by its own clock: a minute of margin.
    expect(Number(request.body.expires_at)).toBeGreaterThanOrEqual(before + 31 * 60);
    expect(Number(request.body.expires_at)).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 24 * 60 * 60);

    // Stripe's own total is what the reply says; the checkout link is the session's.
    const session = api.session(created.sessionId);
    expect(session.amount_total).toBe(created.amount);
    expect(created.checkout_url).toBe(session.url);

    // The buyer's language is Stripe's page language; a longer deadline is the session's expiry.
    await writeSetting(t.database.db, 'order_pay_minutes', '120');
    try {
      const longer = await createOrder(token, 1, { l: 'tw-cn' });
      const [row] = await t.database.db.select().from(orders).where(eq(orders.id, longer.order_id));
      expect(api.requests.at(-1)?.body).toMatchObject({
        locale: 'zh-TW',
        line_items: [{ quantity: '1', price_data: { product_data: { name: 'Skyway — 1 個月' } } }],
        expires_at: String(Math.floor((row?.latestPayAt.getTime() ?? 0) / 1000)),
      });
    } finally {
      await resetSetting(t.database.db, 'order_pay_minutes');
    }
  });

  const lastCheckoutRequest = () => {
    const request = api.requests
      .filter((r) => r.method === 'POST' && r.path === '/v1/checkout/sessions')
      .at(-1);
    if (!request) throw new Error('no checkout request');
    return request;
  };

  it('offers the configured methods in the buy page’s order, and opens each checkout for the chosen one only', async () => {
    expect((await call('/web/plan/list')).json().data.pay_methods).toEqual(['alipay', 'wechat_pay', 'card']);
    const { token } = await buyer();
    // What Stripe receives, form-encoded: `allowed_payment_method_types[0]=<method>`, and for WeChat
    // Pay `payment_method_options[wechat_pay][client]=web` as well.
    const sent = {
      alipay: { allowed_payment_method_types: ['alipay'] },
      wechat_pay: {
        allowed_payment_method_types: ['wechat_pay'],
        payment_method_options: { wechat_pay: { client: 'web' } },
      },
      card: { allowed_payment_method_types: ['card'] },
    } as const;
    for (const [method, params] of Object.entries(sent)) {
      const created = await createOrder(token, 2, { pay_method: method });
      const { body } = lastCheckoutRequest();
      expect({
        allowed_payment_method_types: body.allowed_payment_method_types,
        ...('payment_method_options' in body ? { payment_method_options: body.payment_method_options } : {}),
      }).toEqual(params);
      // The session Stripe answers offers that method alone; the order says which one was chosen.
      expect(api.session(created.sessionId).payment_method_types).toEqual([method]);
      const [row] = await t.database.db.select().from(orders).where(eq(orders.id, created.order_id));
      expect(row?.payMethod).toBe(method);
      const order = (await call('/web/order/query', { order_id: created.order_id }, token)).json().data;
      expect(order).toMatchObject({ order_id: created.order_id, pay_method: method, status: 'unpaid' });
    }
  });

  it('refuses a method the operator did not enable, creating nothing and opening no checkout', async () => {
    const cardOnly = await startTestApp(
      { ...STRIPE_ENV, STRIPE_PAYMENT_METHODS: 'card', STRIPE_API_URL: api.url },
      undefined,
      t.database,
    );
    try {
      const { user, token } = await buyer();
      const sessionsBefore = api.requests.length;
      const cardOnlyCall = (url: string, payload: object) =>
        cardOnly.app.inject({
          method: 'POST',
          url,
          payload,
          headers: { authorization: token },
          remoteAddress: ip,
        });
      expect((await cardOnlyCall('/web/plan/list', {})).json().data.pay_methods).toEqual(['card']);
      for (const method of ['alipay', 'wechat_pay']) {
        const res = await cardOnlyCall('/web/order/create', {
          period: 'month',
          connections: 1,
          pay_method: method,
          l: 'zh-cn',
        });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({
          code: 400,
          msg: '支付方式格式不正确',
          data: { reason: 'field_invalid', field: 'pay_method' },
        });
      }
      expect(await t.database.db.select().from(orders).where(eq(orders.userId, user.id))).toEqual([]);
      expect(api.requests.length).toBe(sessionsBefore);
    } finally {
      await cardOnly.app.close();
    }
  });

  it('cancels the order and answers payment_unavailable when Stripe cannot be reached', async () => {
    const { token } = await buyer();
    await api.close();
    try {
      const res = await call(
        '/web/order/create',
        { period: 'month', connections: 2, pay_method: 'card' },
        token,
      );
      expect(res.statusCode).toBe(500);
      expect(res.json()).toMatchObject({ code: 500, data: { reason: 'payment_unavailable' } });
    } finally {
      await api.reopen();
    }
    const list = (await call('/web/order/list', { page: 1, size: 10 }, token)).json().data;
    expect(list.total).toBe(1);
    expect(list.list[0]).toMatchObject({ status: 'cancelled' });
  });

  it('credits a paid checkout.session.completed once, however often it is delivered', async () => {
    const { token, expireUser } = await buyer(2);
    const order = await createOrder(token, 2);
    const payload = stripeEvent('checkout.session.completed', paidSession(order.sessionId));

    const res = await deliver(payload);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.json()).toEqual({ received: true });
    expect(await orderStatus(token, order.order_id)).toBe('paid');
    expect(await userInfo(token)).toMatchObject({
      expire_user: expireUser + MONTH,
      subscribe_type: 2,
      connections: 2,
    });

    // Stripe delivers again (a retry, a resend from the dashboard): a fresh signature, same event.
    const again = await deliver(payload);
    expect(again.statusCode).toBe(200);
    expect((await userInfo(token)).expire_user).toBe(expireUser + MONTH);
    const rows = await paymentsOf(order.order_id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      provider: 'stripe',
      amount: order.amount,
      currency: 'CNY',
      outcome: 'credited',
    });
  });

  it('refuses a bad signature, a stale one and a re-serialized body with 400, changing nothing', async () => {
    const { token, expireUser } = await buyer(2);
    const order = await createOrder(token, 2);
    const eventId = randomId('evt_test');
    const payload = stripeEvent('checkout.session.completed', paidSession(order.sessionId), eventId);
    const now = Math.floor(Date.now() / 1000);

    const refused = [
      await deliver(payload, stripeSignature(payload, `whsec_${randomBytes(16).toString('hex')}`)),
      await deliver(payload, stripeSignature(payload, WEBHOOK_SECRET, now - 301)),
      await deliver(JSON.stringify(JSON.parse(payload), null, 2), stripeSignature(payload, WEBHOOK_SECRET)),
      await deliver(payload, ''),
    ];
    for (const res of refused) {
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 400, data: { reason: 'payment_signature_invalid' } });
    }
    expect(await orderStatus(token, order.order_id)).toBe('unpaid');
    expect((await userInfo(token)).expire_user).toBe(expireUser);
    expect(
      await t.database.db.select().from(paymentEvents).where(eq(paymentEvents.eventId, eventId)),
    ).toEqual([]);
    expect(await paymentsOf(order.order_id)).toEqual([]);

    // The very same event, signed as Stripe signs it, within the 300 s: it was only the signature.
    expect((await deliver(payload, stripeSignature(payload, WEBHOOK_SECRET, now - 290))).statusCode).toBe(
      200,
    );
    expect(await orderStatus(token, order.order_id)).toBe('paid');
  });

  it('waits for an async payment: credits on async_payment_succeeded, never on async_payment_failed', async () => {
    const { token, expireUser } = await buyer(2);

    // Alipay: completed while still unpaid, then succeeded.
    const first = await createOrder(token, 2);
    const pending = {
      ...api.session(first.sessionId),
      status: 'complete',
      payment_intent: randomId('pi_test'),
    };
    expect((await deliver(stripeEvent('checkout.session.completed', pending))).statusCode).toBe(200);
    expect(await orderStatus(token, first.order_id)).toBe('unpaid');
    expect(await eventsOf(first.order_id)).toHaveLength(1);
    expect(await paymentsOf(first.order_id)).toEqual([]);

    const succeeded = stripeEvent('checkout.session.async_payment_succeeded', {
      ...pending,
      payment_status: 'paid',
    });
    expect((await deliver(succeeded)).statusCode).toBe(200);
    expect((await deliver(succeeded)).statusCode).toBe(200);
    expect(await orderStatus(token, first.order_id)).toBe('paid');
    expect((await userInfo(token)).expire_user).toBe(expireUser + MONTH);
    expect(await paymentsOf(first.order_id)).toHaveLength(1);

    // WeChat Pay: completed while unpaid, then failed.
    const second = await createOrder(token, 2);
    const unpaid = {
      ...api.session(second.sessionId),
      status: 'complete',
      payment_intent: randomId('pi_test'),
    };
    expect((await deliver(stripeEvent('checkout.session.completed', unpaid))).statusCode).toBe(200);
    const failed = await deliver(stripeEvent('checkout.session.async_payment_failed', unpaid));
    expect(failed.statusCode).toBe(200);
    expect(failed.json()).toEqual({ received: true });
    expect(await orderStatus(token, second.order_id)).toBe('unpaid');
    expect((await userInfo(token)).expire_user).toBe(expireUser + MONTH);
    expect(await paymentsOf(second.order_id)).toEqual([]);
    expect((await eventsOf(second.order_id)).map((row) => row.type).sort()).toEqual([
      'checkout.session.async_payment_failed',
      'checkout.session.completed',
    ]);
  });

  it('gives no time for an amount that differs from the order, and records the payment for the operator', async () => {
    const { token, expireUser } = await buyer(2);
    const order = await createOrder(token, 2);
    const session = { ...paidSession(order.sessionId), amount_total: order.amount - 100 };
    expect((await deliver(stripeEvent('checkout.session.completed', session))).statusCode).toBe(200);
    expect(await orderStatus(token, order.order_id)).toBe('unpaid');
    expect((await userInfo(token)).expire_user).toBe(expireUser);
    const rows = await paymentsOf(order.order_id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ amount: order.amount - 100, outcome: 'amount_mismatch' });
  });

  it('credits a payment that arrives after the order expired', async () => {
    const { token, expireUser } = await buyer(2);
    const order = await createOrder(token, 2);
    await t.database.db
      .update(orders)
      .set({ latestPayAt: new Date(Date.now() - 60_000) })
      .where(eq(orders.id, order.order_id));
    const listed = (await call('/web/order/list', { page: 1, size: 1 }, token)).json().data.list[0];
    expect(listed).toMatchObject({ order_id: order.order_id, status: 'expired' });

    expect(
      (await deliver(stripeEvent('checkout.session.completed', paidSession(order.sessionId)))).statusCode,
    ).toBe(200);
    expect(await orderStatus(token, order.order_id)).toBe('paid');
    expect((await userInfo(token)).expire_user).toBe(expireUser + MONTH);
  });

  it('finds a payment by order/query, and the webhook for it later credits nothing more', async () => {
    const { token, expireUser } = await buyer(2);
    const order = await createOrder(token, 2);
    expect(await orderStatus(token, order.order_id)).toBe('unpaid');
    const asked = api.requests.filter(
      (r) => r.method === 'GET' && r.path === `/v1/checkout/sessions/${order.sessionId}`,
    );
    expect(asked).toHaveLength(1);

    const session = api.markPaid(order.sessionId);
    // Asked again at once (the page polls every 2 s), Stripe is not asked again...
    expect(await orderStatus(token, order.order_id)).toBe('unpaid');
    expect(api.requests.filter((r) => r.path === `/v1/checkout/sessions/${order.sessionId}`)).toHaveLength(1);
    // ...but once the last question is a few seconds old, it is, and the payment is found.
    expect(await later(PROVIDER_ASKED_EVERY_SECONDS, () => orderStatus(token, order.order_id))).toBe('paid');
    expect((await userInfo(token)).expire_user).toBe(expireUser + MONTH);

    const res = await deliver(stripeEvent('checkout.session.completed', session));
    expect(res.statusCode).toBe(200);
    expect((await userInfo(token)).expire_user).toBe(expireUser + MONTH);
    const rows = await paymentsOf(order.order_id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ providerPaymentId: session.payment_intent, outcome: 'credited' });
  });

  it('answers 200 to other events and records nothing', async () => {
    const { token } = await buyer(2);
    const order = await createOrder(token, 2);
    const eventId = randomId('evt_test');
    const other = stripeEvent('checkout.session.expired', api.session(order.sessionId), eventId);
    const res = await deliver(other);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ received: true });
    expect(
      await t.database.db.select().from(paymentEvents).where(eq(paymentEvents.eventId, eventId)),
    ).toEqual([]);
    expect(await orderStatus(token, order.order_id)).toBe('unpaid');
  });

  describe('closing the checkout of an order that can no longer be paid', () => {
    /** The orders job as the app schedules it, with a clock of the test's choosing. */
    const ordersJob = (now: Date) =>
      runOrdersJob(
        {
          ...fulfilDeps(t),
          provider: createStripeProvider({
            secretKey: SECRET_KEY,
            webhookSecret: WEBHOOK_SECRET,
            methods: ['card'],
            apiUrl: api.url,
            siteName: 'Skyway',
          }),
          log: t.app.log,
        },
        now,
      );
    const expireCalls = (sessionId: string) =>
      api.requests.filter(
        (r) => r.method === 'POST' && r.path === `/v1/checkout/sessions/${sessionId}/expire`,
      );
    const closeDue = async (orderId: string) =>
      (await t.database.db.select().from(orders).where(eq(orders.id, orderId)))[0]?.checkoutCloseDueAt;

    it('expires the session of an order a newer order replaced, or the user cancelled', async () => {
      const { token } = await buyer(2);
      const replaced = await createOrder(token, 2);
      const newer = await createOrder(token, 2);
      expect(api.session(replaced.sessionId)).toMatchObject({ status: 'expired', url: null });
      expect(api.session(newer.sessionId).status).toBe('open');
      expect(await orderStatus(token, replaced.order_id)).toBe('cancelled');

      expect((await call('/web/order/cancel', { order_id: newer.order_id }, token)).json().code).toBe(200);
      expect(api.session(newer.sessionId)).toMatchObject({ status: 'expired', url: null });
      for (const order of [replaced, newer]) {
        expect(expireCalls(order.sessionId)).toHaveLength(1);
        expect(await closeDue(order.order_id)).toBeNull();
      }
    });

    it('cancels even when Stripe cannot be reached, and the orders job expires the session later', async () => {
      const { token } = await buyer(2);
      const order = await createOrder(token, 2);
      await api.close();
      let cancelled;
      try {
        cancelled = await call('/web/order/cancel', { order_id: order.order_id }, token);
      } finally {
        await api.reopen();
      }
      expect(cancelled.json()).toMatchObject({ code: 200 });
      expect(await orderStatus(token, order.order_id)).toBe('cancelled');
      expect(api.session(order.sessionId).status).toBe('open');
      expect(await closeDue(order.order_id)).not.toBeNull();

      // The failed attempt holds the order for a while (no instance retries it at once)...
      expect(await ordersJob(new Date())).toMatchObject({ checkoutsClosed: 0, checkoutsFailed: 0 });
      expect(expireCalls(order.sessionId)).toHaveLength(0);
      // ...then the job closes it, once.
      const later = new Date(Date.now() + 3 * 60_000);
      expect(await ordersJob(later)).toMatchObject({ checkoutsClosed: 1, checkoutsFailed: 0 });
      expect(api.session(order.sessionId).status).toBe('expired');
      expect(await closeDue(order.order_id)).toBeNull();
      expect(await ordersJob(new Date(later.getTime() + 3 * 60_000))).toMatchObject({ checkoutsClosed: 0 });
      expect(expireCalls(order.sessionId)).toHaveLength(1);
    });

    it('keeps retrying while Stripe stays unreachable', async () => {
      const { token } = await buyer(2);
      const order = await createOrder(token, 2);
      await api.close();
      try {
        expect((await call('/web/order/cancel', { order_id: order.order_id }, token)).json().code).toBe(200);
        const later = new Date(Date.now() + 3 * 60_000);
        expect(await ordersJob(later)).toMatchObject({ checkoutsClosed: 0, checkoutsFailed: 1 });
        expect(await closeDue(order.order_id)).not.toBeNull();
      } finally {
        await api.reopen();
      }
      expect(await ordersJob(new Date(Date.now() + 6 * 60_000))).toMatchObject({ checkoutsClosed: 1 });
      expect(api.session(order.sessionId).status).toBe('expired');
    });

    it.runIf(testDatabaseKind === 'postgres')(
      'closes each due checkout once when several instances run the job at once',
      async () => {
        const due = [];
        for (let i = 0; i < 6; i++) {
          const { token } = await buyer(2);
          due.push(await createOrder(token, 2));
        }
        // What a cancel leaves when Stripe could not be reached (or its instance stopped mid-way).
        await t.database.db
          .update(orders)
          .set({ status: 'cancelled', checkoutCloseDueAt: new Date() })
          .where(
            inArray(
              orders.id,
              due.map((order) => order.order_id),
            ),
          );
        const later = new Date(Date.now() + 60_000);
        const runs = await Promise.all([ordersJob(later), ordersJob(later), ordersJob(later)]);
        expect(runs.reduce((sum, run) => sum + run.checkoutsClosed, 0)).toBe(due.length);
        for (const order of due) {
          expect(expireCalls(order.sessionId)).toHaveLength(1);
          expect(api.session(order.sessionId).status).toBe('expired');
          expect(await closeDue(order.order_id)).toBeNull();
        }
      },
    );

    it('takes a session paid already as closed, and credits its payment as any other', async () => {
      const { token, expireUser } = await buyer(2);
      const paid = await createOrder(token, 2);
      // The buyer paid, and the webhook is still on its way when a newer order replaces this one.
      const session = api.markPaid(paid.sessionId);
      await createOrder(token, 2);
      expect(expireCalls(paid.sessionId)).toHaveLength(1);
      expect(api.session(paid.sessionId).status).toBe('complete');
      expect(await closeDue(paid.order_id)).toBeNull();

      expect((await deliver(stripeEvent('checkout.session.completed', session))).statusCode).toBe(200);
      const [row] = await t.database.db.select().from(orders).where(eq(orders.id, paid.order_id));
      expect(row?.status).toBe('paid');
      expect((await userInfo(token)).expire_user).toBe(expireUser + MONTH);
    });
  });

  it('keeps the webhook out of the per-address call ceiling, and other calls in it', async () => {
    const limited = await startTestApp({
      ...STRIPE_ENV,
      STRIPE_API_URL: api.url,
      RATE_LIMIT_PER_MINUTE: '3',
    });
    try {
      const address = '3.18.12.63';
      const deliveries = [];
      for (let i = 0; i < 20; i++) {
        const payload = stripeEvent('checkout.session.expired', {
          id: randomId('cs_test'),
          object: 'checkout.session',
        });
        deliveries.push((await deliver(payload, undefined, limited.app)).statusCode);
      }
      expect(deliveries).toEqual(Array(20).fill(200));
      const calls = [];
      for (let i = 0; i < 4; i++) {
        const res = await limited.app.inject({
          method: 'POST',
          url: '/web/plan/list',
          payload: {},
          remoteAddress: address,
        });
        calls.push(res.statusCode);
      }
      expect(calls).toEqual([200, 200, 200, 429]);
    } finally {
      await limited.close();
    }
  });

  it.runIf(testDatabaseKind === 'postgres')(
    'credits once when the same event arrives 20 times at once',
    async () => {
      const { token, expireUser } = await buyer(2);
      const order = await createOrder(token, 2);
      const eventId = randomId('evt_test');
      const payload = stripeEvent('checkout.session.completed', paidSession(order.sessionId), eventId);
      const replies = await Promise.all(Array.from({ length: 20 }, () => deliver(payload)));
      expect(replies.map((res) => res.statusCode)).toEqual(Array(20).fill(200));
      expect((await userInfo(token)).expire_user).toBe(expireUser + MONTH);
      expect(await paymentsOf(order.order_id)).toHaveLength(1);
      expect(
        await t.database.db
          .select()
          .from(paymentEvents)
          .where(and(eq(paymentEvents.provider, 'stripe'), eq(paymentEvents.eventId, eventId))),
      ).toHaveLength(1);
    },
  );
});
