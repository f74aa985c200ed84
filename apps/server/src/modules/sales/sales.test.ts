import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_SECONDS } from '@skyway/shared/plans';
import { auditLog, expiryLedger, payments, providerNotices, refunds, users } from '../../db/schema/index.ts';
import { type SignedInStaff, signedInStaff } from '../../testing/staff.ts';
import {
  randomId,
  startStripeApi,
  type StripeApi,
  stripeEvent,
  stripeSignature,
} from '../../testing/stripe-api.ts';
import { newClientAddress, signedInUser, useTestApp, webCaller } from '../../testing/test-app.ts';
import { fulfilPayment } from '../orders/fulfilment.ts';
import { fulfilDeps } from '../../testing/payments.ts';

const SECRET_KEY = `sk_test_${randomBytes(12).toString('hex')}`;
const WEBHOOK_SECRET = `whsec_${randomBytes(16).toString('hex')}`;
const MONTH = 31 * DAY_SECONDS;

describe('orders, payments, refunds and the attention queue', () => {
  let stripe: StripeApi;
  let finance: SignedInStaff;
  let viewer: SignedInStaff;
  beforeAll(async () => {
    stripe = await startStripeApi({ secretKey: SECRET_KEY });
  });
  afterAll(() => stripe.close());
  const t = useTestApp(() => ({
    PAYMENT_PROVIDER: 'stripe',
    STRIPE_SECRET_KEY: SECRET_KEY,
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_URL: stripe.url,
    PUBLIC_URL: 'https://vpn.example.com',
    ORDERS_EVERY_MINUTES: '0',
  }));
  const web = webCaller(
    () => t.app,
    () => newClientAddress(),
  );

  beforeAll(async () => {
    finance = await signedInStaff(t.app, t.database, 'finance');
    viewer = await signedInStaff(t.app, t.database, 'viewer');
  });

  /** A buyer with ten days left who paid a month of 2 connections through Stripe: `amountOff` short makes it a mismatch. */
  async function paidOrder(amountOff = 0) {
    const { user, token } = await signedInUser(t.database);
    // Ten days left at the same size, so the month bought (and taken back) is exactly a month.
    const expireAt = new Date(Date.now() + 10 * DAY_SECONDS * 1000);
    await t.database.db.update(users).set({ expireAt, connections: 2 }).where(eq(users.id, user.id));
    const order = (
      await web('/web/order/create', { period: 'month', connections: 2, pay_method: 'card' }, token)
    ).json().data as { order_id: string; amount: number };
    const intent = stripe.paidIntent(order.amount - amountOff, 'cny');
    const outcome = await fulfilPayment(
      fulfilDeps(t),
      {
        provider: 'stripe',
        orderId: order.order_id,
        paymentId: intent,
        amount: order.amount - amountOff,
        currency: 'CNY',
      },
      new Date(),
    );
    const [payment] = await t.database.db
      .select()
      .from(payments)
      .where(eq(payments.providerPaymentId, intent));
    if (!payment) throw new Error('no payment');
    return { user, token, order, intent, outcome, payment };
  }

  const expiryOf = async (id: string) =>
    (await t.database.db.select().from(users).where(eq(users.id, id)))[0]?.expireAt?.getTime() ?? 0;
  const ledgerOf = (id: string) =>
    t.database.db
      .select()
      .from(expiryLedger)
      .where(and(eq(expiryLedger.userId, id), eq(expiryLedger.reason, 'refund')));

  const deliver = (payload: string) =>
    t.app.inject({
      method: 'POST',
      url: '/web/pay/stripe/notify',
      payload,
      headers: {
        'content-type': 'application/json',
        'stripe-signature': stripeSignature(payload, WEBHOOK_SECRET),
      },
    });

  it('lists orders and payments with their buyer, filtered and in either order', async () => {
    const paid = await paidOrder();
    const orders = (await viewer.call('GET', `/orders?user_id=${paid.user.id}`)).json().data;
    expect(orders).toMatchObject({
      total: 1,
      total_capped: false,
      items: [{ id: paid.order.order_id, status: 'paid', email: paid.user.email }],
    });
    const list = (await viewer.call('GET', `/payments?user_id=${paid.user.id}&outcome=credited`)).json().data;
    expect(list.items).toMatchObject([
      { id: paid.payment.id, provider_payment_id: paid.intent, refund: null },
    ]);
    const none = (
      await viewer.call('GET', `/payments?user_id=${paid.user.id}&outcome=amount_mismatch`)
    ).json().data;
    expect(none.total).toBe(0);
    const later = await paidOrder();
    const both = [paid.payment.id, later.payment.id];
    const since = new Date(paid.payment.createdAt.getTime() - 1).toISOString();
    const newest = (await viewer.call('GET', `/payments?from=${since}&size=100`))
      .json()
      .data.items.map((p: { id: string }) => p.id);
    const oldest = (await viewer.call('GET', `/payments?from=${since}&order=asc&size=100`))
      .json()
      .data.items.map((p: { id: string }) => p.id);
    expect(newest.filter((id: string) => both.includes(id))).toEqual([later.payment.id, paid.payment.id]);
    expect(oldest.filter((id: string) => both.includes(id))).toEqual(both);
    expect((await viewer.call('GET', '/orders?status=nonsense')).json()).toMatchObject({ code: 400 });
  });

  it('refunds through Stripe with an idempotency key and takes the order’s time back, with a ledger row and an audit row', async () => {
    const paid = await paidOrder();
    const before = await expiryOf(paid.user.id);
    const reply = await finance.call('POST', `/payments/${paid.payment.id}/refund`, {
      time: 'take_back',
      reason: 'Customer asked within 7 days',
    });
    expect(reply.json()).toMatchObject({
      code: 200,
      data: { status: 'succeeded', time_action: 'take_back', amount: paid.order.amount },
    });
    const refund = reply.json().data;
    expect(refund.seconds_taken).toBe(MONTH);
    const asked = stripe.requests.filter((r) => r.path === '/v1/refunds');
    expect(asked).toHaveLength(1);
    expect(asked[0]?.headers['idempotency-key']).toBe(`refund-${refund.id}`);
    expect(asked[0]?.body).toMatchObject({ payment_intent: paid.intent, amount: String(paid.order.amount) });
    expect(await expiryOf(paid.user.id)).toBe(before - MONTH * 1000);
    expect(await ledgerOf(paid.user.id)).toMatchObject([{ seconds: -MONTH, ref: paid.order.order_id }]);
    const audits = await t.database.db.select().from(auditLog).where(eq(auditLog.targetId, paid.payment.id));
    expect(audits).toMatchObject([{ action: 'payment.refund', staffId: finance.id }]);
    // Once is all: a second refund of the same payment is refused, and Stripe is not asked again.
    const again = await finance.call('POST', `/payments/${paid.payment.id}/refund`, {
      time: 'keep',
      reason: 'again',
    });
    expect(again.json()).toMatchObject({ code: 409, data: { reason: 'already_refunded' } });
    expect(stripe.requests.filter((r) => r.path === '/v1/refunds')).toHaveLength(1);
  });

  it('keeps the time when the operator says so, and still writes the refund in the ledger', async () => {
    const paid = await paidOrder();
    const before = await expiryOf(paid.user.id);
    const reply = await finance.call('POST', `/payments/${paid.payment.id}/refund`, {
      time: 'keep',
      reason: 'Goodwill: keep the month',
    });
    expect(reply.json().data).toMatchObject({ status: 'succeeded', seconds_taken: 0 });
    expect(await expiryOf(paid.user.id)).toBe(before);
    expect(await ledgerOf(paid.user.id)).toMatchObject([{ seconds: 0, ref: paid.order.order_id }]);
  });

  it('records one refund under concurrent clicks, and Stripe is asked once', async () => {
    const paid = await paidOrder();
    const clicks = await Promise.all(
      Array.from({ length: 5 }, () =>
        finance.call('POST', `/payments/${paid.payment.id}/refund`, {
          time: 'take_back',
          reason: 'Double charge',
        }),
      ),
    );
    const answers = clicks.map((click) => click.json());
    expect(answers.every((a) => a.code === 200 || a.data.reason === 'already_refunded')).toBe(true);
    expect(new Set(answers.filter((a) => a.code === 200).map((a) => a.data.id)).size).toBe(1);
    const rows = await t.database.db.select().from(refunds).where(eq(refunds.paymentId, paid.payment.id));
    expect(rows).toHaveLength(1);
    expect(stripe.refunds().filter((r) => r.payment_intent === paid.intent)).toHaveLength(1);
    expect(await ledgerOf(paid.user.id)).toHaveLength(1);
  });

  it('asks again under the same key after Stripe could not be reached, and refunds once', async () => {
    const paid = await paidOrder();
    await stripe.close();
    const lost = await finance.call('POST', `/payments/${paid.payment.id}/refund`, {
      time: 'take_back',
      reason: 'Refund while down',
    });
    await stripe.reopen();
    expect(lost.json()).toMatchObject({ code: 500, data: { reason: 'payment_unavailable' } });
    const queue = (await viewer.call('GET', '/attention')).json().data;
    expect(queue.refunds.map((p: { id: string }) => p.id)).toContain(paid.payment.id);
    const retried = await finance.call('POST', `/payments/${paid.payment.id}/refund`, {
      time: 'take_back',
      reason: 'Retry',
    });
    expect(retried.json()).toMatchObject({
      code: 200,
      data: { status: 'succeeded', reason: 'Refund while down' },
    });
    expect(stripe.refunds().filter((r) => r.payment_intent === paid.intent)).toHaveLength(1);
    expect(await ledgerOf(paid.user.id)).toHaveLength(1);
  });

  it('marks a refund Stripe refuses as failed, with Stripe’s words, and changes no time', async () => {
    const paid = await paidOrder();
    // Refunded in Stripe's dashboard first: Stripe refuses a second refund of the charge.
    stripe.refunds();
    await fetch(`${stripe.url}/v1/refunds`, {
      method: 'POST',
      headers: { authorization: `Bearer ${SECRET_KEY}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: `payment_intent=${paid.intent}`,
    });
    const before = await expiryOf(paid.user.id);
    const reply = await finance.call('POST', `/payments/${paid.payment.id}/refund`, {
      time: 'take_back',
      reason: 'Too late',
    });
    expect(reply.json()).toMatchObject({ code: 409, data: { reason: 'refund_refused' } });
    const [row] = await t.database.db.select().from(refunds).where(eq(refunds.paymentId, paid.payment.id));
    expect(row).toMatchObject({ status: 'failed', error: expect.stringContaining('already been refunded') });
    expect(await expiryOf(paid.user.id)).toBe(before);
    // It waits in the queue until the operator settles it (it was refunded in Stripe's dashboard).
    const queued = async () =>
      (await viewer.call('GET', '/attention')).json().data.refunds.map((p: { id: string }) => p.id);
    expect(await queued()).toContain(paid.payment.id);
    const settled = await finance.call('POST', `/payments/${paid.payment.id}/settle`, {
      reason: 'Refunded at Stripe',
    });
    expect(settled.json().data).toMatchObject({ settlement: 'reconciled' });
    expect(await queued()).not.toContain(paid.payment.id);
  });

  it('puts a short payment in the queue until it is refunded or settled by hand', async () => {
    const short = await paidOrder(100);
    expect(short.outcome).toBe('amount_mismatch');
    const queued = (await viewer.call('GET', '/attention')).json().data;
    expect(queued.payments.map((p: { id: string }) => p.id)).toContain(short.payment.id);
    const other = await paidOrder(100);
    const settled = await finance.call('POST', `/payments/${other.payment.id}/settle`, {
      reason: 'Credited by hand',
    });
    expect(settled.json().data).toMatchObject({ settlement: 'reconciled' });
    const refunded = await finance.call('POST', `/payments/${short.payment.id}/refund`, {
      time: 'take_back',
      reason: 'Wrong amount',
    });
    // It gave no time, so there is none to take back.
    expect(refunded.json().data).toMatchObject({ status: 'succeeded', seconds_taken: null });
    const after = (await viewer.call('GET', '/attention'))
      .json()
      .data.payments.map((p: { id: string }) => p.id);
    expect(after).not.toContain(short.payment.id);
    expect(after).not.toContain(other.payment.id);
    expect(
      (await finance.call('POST', `/payments/${other.payment.id}/settle`, { reason: 'twice' })).json(),
    ).toMatchObject({
      code: 409,
      data: { reason: 'already_resolved' },
    });
  });

  it('records charge.refunded from Stripe’s dashboard and charge.dispute.created in the queue, once each', async () => {
    const paid = await paidOrder();
    const charge = {
      id: randomId('ch_test'),
      object: 'charge',
      amount: paid.order.amount,
      amount_refunded: paid.order.amount,
      currency: 'cny',
      payment_intent: paid.intent,
      refunded: true,
    };
    const refundedEvent = stripeEvent('charge.refunded', charge);
    expect((await deliver(refundedEvent)).statusCode).toBe(200);
    expect((await deliver(refundedEvent)).statusCode).toBe(200);
    const dispute = {
      id: randomId('dp_test'),
      object: 'dispute',
      amount: paid.order.amount,
      currency: 'cny',
      charge: charge.id,
      payment_intent: paid.intent,
      reason: 'fraudulent',
      status: 'needs_response',
    };
    expect((await deliver(stripeEvent('charge.dispute.created', dispute))).statusCode).toBe(200);
    const notices = await t.database.db
      .select()
      .from(providerNotices)
      .where(eq(providerNotices.paymentId, paid.payment.id));
    expect(notices.map((n) => n.kind).sort()).toEqual(['dispute', 'refunded_elsewhere']);
    const queue = (await viewer.call('GET', '/attention')).json().data;
    const shown = queue.notices.filter((n: { payment_id: string }) => n.payment_id === paid.payment.id);
    expect(shown).toHaveLength(2);
    expect(shown.find((n: { kind: string }) => n.kind === 'dispute')).toMatchObject({
      email: paid.user.email,
      detail: { reason: 'fraudulent' },
    });

    // The operator takes the time back for the refund made in Stripe's dashboard.
    const before = await expiryOf(paid.user.id);
    const elsewhere = notices.find((n) => n.kind === 'refunded_elsewhere');
    const resolved = await finance.call('POST', `/notices/${elsewhere?.id}/resolve`, {
      reason: 'Refunded by phone',
      time: 'take_back',
    });
    expect(resolved.json().code).toBe(200);
    expect(await expiryOf(paid.user.id)).toBe(before - MONTH * 1000);
    expect(await ledgerOf(paid.user.id)).toHaveLength(1);
    expect(
      (await finance.call('POST', `/notices/${elsewhere?.id}/resolve`, { reason: 'again' })).json(),
    ).toMatchObject({ code: 409 });
  });

  it('refuses refunds and resolutions to roles without them, and bad input changes nothing', async () => {
    const paid = await paidOrder();
    expect(
      (
        await viewer.call('POST', `/payments/${paid.payment.id}/refund`, {
          time: 'take_back',
          reason: 'not mine',
        })
      ).json(),
    ).toMatchObject({ code: 403 });
    for (const body of [
      { time: 'sometimes', reason: 'bad time' },
      { time: 'keep', reason: '' },
      { time: 'keep' },
    ]) {
      expect((await finance.call('POST', `/payments/${paid.payment.id}/refund`, body)).json()).toMatchObject({
        code: 400,
      });
    }
    expect(
      (
        await finance.call('POST', `/payments/${randomUuid()}/refund`, { time: 'keep', reason: 'no such' })
      ).json(),
    ).toMatchObject({ code: 404 });
    expect(await t.database.db.select().from(refunds).where(eq(refunds.paymentId, paid.payment.id))).toEqual(
      [],
    );
  });
});

const randomUuid = () => crypto.randomUUID();
