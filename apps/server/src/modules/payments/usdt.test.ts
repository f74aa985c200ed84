import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, providerNotices } from '../../db/schema/index.ts';
import { startEpusdtServer, TEST_USDT_RATE } from '../../testing/epusdt-server.ts';
import { addEpusdtGateway, runGatewayOrdersJob, TEST_SECRETS_KEY } from '../../testing/gateways.ts';
import {
  gatewayRecords,
  itCreditsOnceOnTwoInstances,
  useGatewaySuite,
  useGatewayOnTwoInstances,
} from '../../testing/gateway-suites.ts';
import { signedInStaff } from '../../testing/staff.ts';
import { later, newClientAddress, signedInUser, type TestApp, webCaller } from '../../testing/test-app.ts';
import { PROVIDER_ASKED_EVERY_SECONDS } from '../orders/service.ts';
import { testDatabaseKind } from '../../testing/test-database.ts';

const ENV = { SECRETS_KEY: TEST_SECRETS_KEY, PUBLIC_URL: 'https://vpn.example.com' };

/** The USDT the stand-in asks for an amount in fen, as the order keeps it. */
const usdtOf = (fen: number) => String(Math.round((fen / 100 / TEST_USDT_RATE) * 10_000) / 10_000);

describe('USDT gateways (EPUSDT API)', () => {
  const suite = useGatewaySuite(ENV, startEpusdtServer, addEpusdtGateway);
  const { lines, t, web } = suite;
  const notifyPath = () => `/pay/usdt/${suite.gatewayId}/notify`;

  /** A new buyer's order of a month for 2 connections in USDT through the gateway. */
  async function usdtOrder(app: TestApp = t) {
    const { user, token } = await signedInUser(app.database);
    const created = await webCaller(() => app.app, newClientAddress)(
      '/web/order/create',
      { period: 'month', connections: 2, pay_method: 'usdt', gateway_id: suite.gatewayId },
      token,
    );
    expect(created.statusCode, created.body).toBe(200);
    const order = created.json().data as { order_id: string; amount: number; checkout_url: string };
    return { ...order, userId: user.id, token };
  }

  const deliver = (body: Record<string, string | number>, app = t.app) =>
    app.inject({ method: 'POST', url: notifyPath(), payload: body, remoteAddress: newClientAddress() });

  const { orderRow, expiryOf, paymentsOf, refusals } = gatewayRecords(
    () => t,
    () => `epusdt:${suite.gatewayId}`,
  );

  it('opens a signed transaction, keeps the USDT amount shown, and credits its callback once', async () => {
    const order = await usdtOrder();
    const trade = suite.standIn.transactions.get(order.order_id);
    expect(trade).toMatchObject({
      amount: order.amount / 100,
      notify_url: `https://vpn.example.com${notifyPath()}`,
    });
    expect(order.checkout_url).toBe(`${suite.standIn.url}/pay/checkout-counter/${trade?.trade_id}`);
    expect(await orderRow(order.order_id)).toMatchObject({
      providerRef: trade?.trade_id,
      usdtAmount: usdtOf(order.amount),
    });
    const listed = await web('/web/order/query', { order_id: order.order_id }, order.token);
    expect(listed.json().data).toMatchObject({ pay_method: 'usdt', usdt_amount: usdtOf(order.amount) });

    const reply = await deliver(suite.standIn.pay(order.order_id));
    expect(reply.statusCode).toBe(200);
    expect(reply.body).toBe('ok');
    expect((await orderRow(order.order_id))?.status).toBe('paid');
    expect(await expiryOf(order.userId)).not.toBeNull();
    expect(await paymentsOf(order.order_id)).toMatchObject([
      { provider: `epusdt:${suite.gatewayId}`, providerPaymentId: trade?.trade_id, outcome: 'credited' },
    ]);
    expect((await deliver(suite.standIn.pay(order.order_id))).body).toBe('ok');
    expect(await paymentsOf(order.order_id)).toHaveLength(1);
  });

  describe('callbacks that change nothing', () => {
    it('a replay of a credited callback: answered, nothing credited again, not queued', async () => {
      const order = await usdtOrder();
      const body = suite.standIn.pay(order.order_id);
      expect((await deliver(body)).body).toBe('ok');
      const expiry = await expiryOf(order.userId);
      const queued = await t.database.db.select().from(providerNotices);
      expect((await deliver(body)).body).toBe('ok');
      expect(await expiryOf(order.userId)).toEqual(expiry);
      expect(await paymentsOf(order.order_id)).toHaveLength(1);
      expect(await t.database.db.select().from(providerNotices)).toHaveLength(queued.length);
    });

    type Forge = (order: { order_id: string; amount: number }) => Record<string, string | number>;
    const forgeries: [string, string, Forge, string][] = [
      [
        'signed with another token',
        'bad_signature',
        (o) => suite.standIn.callback(o.order_id, {}, 'not-the-token'),
        'fail',
      ],
      [
        'its signature changed',
        'bad_signature',
        (o) => ({ ...suite.standIn.callback(o.order_id), actual_amount: 0.01 }),
        'fail',
      ],
      [
        'for another trade',
        'other_trade',
        (o) => suite.standIn.callback(o.order_id, { trade_id: '2026othertrade' }),
        'ok',
      ],
      [
        'for another USDT amount',
        'wrong_usdt_amount',
        (o) =>
          suite.standIn.callback(o.order_id, {
            actual_amount: (Number(usdtOf(o.amount)) * 10_000 - 1) / 10_000,
          }),
        'ok',
      ],
      ['not paid', 'wrong_status', (o) => suite.standIn.callback(o.order_id, { status: 1 }), 'ok'],
      ['expired', 'wrong_status', (o) => suite.standIn.callback(o.order_id, { status: 3 }), 'ok'],
      [
        'for no order of ours',
        'unknown_order',
        () => suite.standIn.callback('20260101000000nosuchorder'),
        'ok',
      ],
    ];
    for (const [what, reason, forge, answer] of forgeries) {
      it(`a callback ${what}: refused, and in the attention queue as ${reason}`, async () => {
        const order = await usdtOrder();
        const before = await refusals(reason);
        const reply = await deliver(forge(order));
        expect(reply.body).toBe(answer);
        expect((await orderRow(order.order_id))?.status).toBe('unpaid');
        expect(await expiryOf(order.userId)).toBeNull();
        expect(await paymentsOf(order.order_id)).toEqual([]);
        expect(await refusals(reason)).toHaveLength(before.length + 1);
      });
    }

    it('a callback one fen short: no time, the payment waits for the operator', async () => {
      const order = await usdtOrder();
      const amount = (order.amount - 1) / 100;
      expect((await deliver(suite.standIn.callback(order.order_id, { amount }))).body).toBe('ok');
      expect((await orderRow(order.order_id))?.status).toBe('unpaid');
      expect(await expiryOf(order.userId)).toBeNull();
      expect(await paymentsOf(order.order_id)).toMatchObject([
        { amount: order.amount - 1, outcome: 'amount_mismatch' },
      ]);
    });
  });

  it('finds a payment whose callback was lost when the buyer asks', async () => {
    const order = await usdtOrder();
    const unpaid = await web('/web/order/query', { order_id: order.order_id }, order.token);
    expect(unpaid.json().data).toMatchObject({ status: 'unpaid' });
    suite.standIn.pay(order.order_id);
    const queried = await later(PROVIDER_ASKED_EVERY_SECONDS, () =>
      web('/web/order/query', { order_id: order.order_id }, order.token),
    );
    expect(queried.json().data).toMatchObject({ order_id: order.order_id, status: 'paid' });
    expect(await paymentsOf(order.order_id)).toMatchObject([
      { amount: order.amount, providerPaymentId: suite.standIn.transactions.get(order.order_id)?.trade_id },
    ]);
  });

  it('finds a payment whose callback was lost in the orders job, once however often it runs', async () => {
    const order = await usdtOrder();
    const unpaid = await usdtOrder();
    suite.standIn.pay(order.order_id);
    expect(await runGatewayOrdersJob(t)).toMatchObject({ paymentsFound: 1, gatewaysUnreachable: 0 });
    expect((await orderRow(order.order_id))?.status).toBe('paid');
    expect((await orderRow(unpaid.order_id))?.status).toBe('unpaid');
    expect(await runGatewayOrdersJob(t)).toMatchObject({ paymentsFound: 0 });
    expect(await paymentsOf(order.order_id)).toHaveLength(1);
  });

  it('records a payment refunded outside the gateway, taking its time back, once', async () => {
    const order = await usdtOrder();
    expect((await deliver(suite.standIn.pay(order.order_id))).body).toBe('ok');
    const paidUntil = await expiryOf(order.userId);
    const [payment] = await paymentsOf(order.order_id);
    const finance = await signedInStaff(t.app, t.database, 'finance');
    const body = { time: 'take_back', reason: 'sent the USDT back to the buyer' };
    // EPUSDT has no refund call: refunding from here is refused and changes nothing.
    const refused = await finance.call('POST', `/payments/${payment?.id}/refund`, body);
    expect(refused.json()).toMatchObject({ code: 409, data: { reason: 'refund_unavailable' } });
    expect(await expiryOf(order.userId)).toEqual(paidUntil);

    const recorded = await finance.call('POST', `/payments/${payment?.id}/refund-outside`, body);
    expect(recorded.json()).toMatchObject({
      code: 200,
      data: { status: 'succeeded', time_action: 'take_back' },
    });
    expect(recorded.json().data.seconds_taken).toBeGreaterThan(0);
    expect((await expiryOf(order.userId))?.getTime()).toBeLessThan(paidUntil?.getTime() ?? 0);
    expect(await paymentsOf(order.order_id)).toMatchObject([{ settlement: 'refunded' }]);
    const audit = await t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.targetId, payment?.id ?? ''));
    expect(audit).toMatchObject([{ action: 'payment.refund_outside', staffId: finance.id }]);

    const again = await finance.call('POST', `/payments/${payment?.id}/refund-outside`, body);
    expect(again.json()).toMatchObject({ code: 409, data: { reason: 'already_refunded' } });
  });

  it('offers USDT only through a gateway that serves it', async () => {
    const { token } = await signedInUser(t.database);
    const create = (pay_method: string) =>
      web(
        '/web/order/create',
        { period: 'month', connections: 1, pay_method, gateway_id: suite.gatewayId },
        token,
      );
    expect((await create('alipay')).json()).toMatchObject({ code: 400, data: { field: 'gateway_id' } });
    // The site's own provider takes no USDT.
    expect(
      (await web('/web/order/create', { period: 'month', connections: 1, pay_method: 'usdt' }, token)).json(),
    ).toMatchObject({ code: 400 });
  });

  it('keeps the API token out of every reply, log line and audit row', async () => {
    await t.close();
    const all = lines.join('\n');
    expect(all).toContain('usdt notify');
    expect(all).not.toContain(suite.standIn.token);
  });
});

describe.runIf(testDatabaseKind === 'postgres')('USDT on two instances', () => {
  const two = useGatewayOnTwoInstances(ENV, startEpusdtServer, addEpusdtGateway);
  itCreditsOnceOnTwoInstances(two, {
    payMethod: 'usdt',
    notifyUrl: (id) => `/pay/usdt/${id}/notify`,
    paidNotify: (standIn, orderId) => ({ json: standIn.pay(orderId) }),
    taken: 'ok',
  });
});
