import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { expiryLedger, orders } from '../../db/schema/index.ts';
import { startEpayServer } from '../../testing/epay-server.ts';
import { addEpayGateway, runGatewayOrdersJob, TEST_SECRETS_KEY } from '../../testing/gateways.ts';
import {
  gatewayRecords,
  itCreditsOnceOnTwoInstances,
  useGatewaySuite,
  useGatewayOnTwoInstances,
} from '../../testing/gateway-suites.ts';
import { signedInStaff } from '../../testing/staff.ts';
import { newClientAddress, signedInUser, type TestApp, webCaller } from '../../testing/test-app.ts';
import { testDatabaseKind } from '../../testing/test-database.ts';
import { NOTIFY_PER_MINUTE } from './gateway-notify.ts';

const ENV = { SECRETS_KEY: TEST_SECRETS_KEY, PUBLIC_URL: 'https://vpn.example.com' };

describe('Epay gateways', () => {
  const suite = useGatewaySuite(ENV, startEpayServer, addEpayGateway);
  const { lines, t, web } = suite;
  const notifyPath = () => `/pay/epay/${suite.gatewayId}/notify`;

  /** A new buyer's order of a month for 2 connections through the gateway, opened at the stand-in. */
  async function epayOrder(payMethod: 'alipay' | 'wechat_pay' = 'alipay', app: TestApp = t) {
    const { user, token } = await signedInUser(app.database);
    const created = await webCaller(() => app.app, newClientAddress)(
      '/web/order/create',
      { period: 'month', connections: 2, pay_method: payMethod, gateway_id: suite.gatewayId },
      token,
    );
    expect(created.statusCode, created.body).toBe(200);
    const order = created.json().data as { order_id: string; amount: number; checkout_url: string };
    // The buyer's browser follows the jump to the aggregator's submit.php.
    expect(await (await fetch(order.checkout_url)).text()).toContain('pay');
    return { ...order, userId: user.id, token };
  }

  const deliver = (fields: Record<string, string>, method: 'GET' | 'POST' = 'POST', app = t.app) =>
    method === 'GET'
      ? app.inject({
          method,
          url: `${notifyPath()}?${new URLSearchParams(fields)}`,
          remoteAddress: newClientAddress(),
        })
      : app.inject({
          method,
          url: notifyPath(),
          payload: new URLSearchParams(fields).toString(),
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          remoteAddress: newClientAddress(),
        });

  const { orderRow, expiryOf, paymentsOf, refusals } = gatewayRecords(
    () => t,
    () => `epay:${suite.gatewayId}`,
  );

  it('sends the buyer to submit.php with the order signed, and credits its notify once', async () => {
    const order = await epayOrder();
    const url = new URL(order.checkout_url);
    expect(url.origin + url.pathname).toBe(`${suite.standIn.url}/submit.php`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      pid: suite.standIn.pid,
      type: 'alipay',
      out_trade_no: order.order_id,
      money: (order.amount / 100).toFixed(2),
      notify_url: `https://vpn.example.com${notifyPath()}`,
      sign_type: 'MD5',
    });

    const reply = await deliver(suite.standIn.pay(order.order_id));
    expect(reply.statusCode).toBe(200);
    expect(reply.body).toBe('success');
    expect((await orderRow(order.order_id))?.status).toBe('paid');
    expect(await expiryOf(order.userId)).not.toBeNull();
    expect(await paymentsOf(order.order_id)).toMatchObject([
      {
        provider: `epay:${suite.gatewayId}`,
        providerPaymentId: suite.standIn.orders.get(order.order_id)?.trade_no,
        outcome: 'credited',
      },
    ]);
  });

  it('takes the notify by GET as well, for WeChat Pay', async () => {
    const order = await epayOrder('wechat_pay');
    expect(suite.standIn.orders.get(order.order_id)?.type).toBe('wxpay');
    const reply = await deliver(suite.standIn.pay(order.order_id), 'GET');
    expect(reply.body).toBe('success');
    expect((await orderRow(order.order_id))?.status).toBe('paid');
  });

  it('credits a paid notify for an order cancelled meanwhile', async () => {
    const order = await epayOrder();
    expect((await web('/web/order/cancel', { order_id: order.order_id }, order.token)).json().code).toBe(200);
    expect((await deliver(suite.standIn.pay(order.order_id))).body).toBe('success');
    expect((await orderRow(order.order_id))?.status).toBe('paid');
    expect(await expiryOf(order.userId)).not.toBeNull();
  });

  describe('in the API mode', () => {
    /** A gateway of the stand-in's merchant in the API mode, signing with `key`: its id. */
    const apiGateway = async (key = suite.standIn.key) =>
      addEpayGateway(
        await signedInStaff(t.app, t.database, 'owner'),
        { ...suite.standIn, key },
        {
          settings: { url: suite.standIn.url, pid: suite.standIn.pid, mode: 'api' },
        },
      );
    const create = (gatewayId: string, token: string) =>
      webCaller(
        () => t.app,
        () => '198.51.100.23',
      )(
        '/web/order/create',
        { period: 'month', connections: 1, pay_method: 'alipay', gateway_id: gatewayId },
        token,
      );

    it("asks mapi.php for the payment with the buyer's address, shows its QR code, and credits its notify", async () => {
      const gatewayId = await apiGateway();
      const { user, token } = await signedInUser(t.database);
      const created = (await create(gatewayId, token)).json();
      expect(created.code, JSON.stringify(created)).toBe(200);
      const order = created.data as { order_id: string; amount: number; checkout_url: string };
      const opened = suite.standIn.orders.get(order.order_id);
      expect(order.checkout_url).toBe(`${suite.standIn.url}/qrcode/${opened?.trade_no}`);
      const call = suite.standIn.requests.filter((request) => request.path === '/mapi.php').at(-1);
      expect(call?.query).toMatchObject({
        pid: suite.standIn.pid,
        type: 'alipay',
        out_trade_no: order.order_id,
        money: (order.amount / 100).toFixed(2),
        clientip: '198.51.100.23',
        notify_url: `https://vpn.example.com/pay/epay/${gatewayId}/notify`,
      });
      const reply = await t.app.inject({
        method: 'POST',
        url: `/pay/epay/${gatewayId}/notify`,
        payload: new URLSearchParams(suite.standIn.pay(order.order_id)).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        remoteAddress: newClientAddress(),
      });
      expect(reply.body).toBe('success');
      expect(await expiryOf(user.id)).not.toBeNull();
    });

    it('tells the buyer the payment is unavailable when mapi.php refuses, and keeps no payable order', async () => {
      const gatewayId = await apiGateway('a-key-the-aggregator-does-not-know');
      const { user, token } = await signedInUser(t.database);
      expect((await create(gatewayId, token)).json()).toMatchObject({
        code: 500,
        data: { reason: 'payment_unavailable' },
      });
      const [order] = await t.database.db.select().from(orders).where(eq(orders.userId, user.id));
      expect(order?.status).toBe('cancelled');
    });
  });

  describe('notifies that change nothing', () => {
    it('a replay of a credited notify: answered, nothing credited again', async () => {
      const order = await epayOrder();
      const fields = suite.standIn.pay(order.order_id);
      expect((await deliver(fields)).body).toBe('success');
      const expiry = await expiryOf(order.userId);
      expect((await deliver(fields)).body).toBe('success');
      expect(await expiryOf(order.userId)).toEqual(expiry);
      expect(await paymentsOf(order.order_id)).toHaveLength(1);
    });

    const forgeries: [string, string, (order: string) => Record<string, string>, string][] = [
      [
        'signed with another key',
        'bad_signature',
        (o) => suite.standIn.notifyFields(o, {}, 'someone-elses-key'),
        'fail',
      ],
      [
        'its signature changed',
        'bad_signature',
        (o) => ({ ...suite.standIn.notifyFields(o), money: '0.01' }),
        'fail',
      ],
      [
        'for another merchant',
        'foreign_merchant',
        (o) => suite.standIn.notifyFields(o, { pid: '999999' }),
        'fail',
      ],
      [
        'not paid',
        'wrong_status',
        (o) => suite.standIn.notifyFields(o, { trade_status: 'WAIT_BUYER_PAY' }),
        'success',
      ],
      [
        'for no order of ours',
        'unknown_order',
        () => suite.standIn.notifyFields('20260101000000nosuchorder'),
        'success',
      ],
    ];
    for (const [what, reason, forge, answer] of forgeries) {
      it(`a notify ${what}: refused, and in the attention queue as ${reason}`, async () => {
        const order = await epayOrder();
        const before = await refusals(reason);
        const reply = await deliver(forge(order.order_id));
        expect(reply.body).toBe(answer);
        expect((await orderRow(order.order_id))?.status).toBe('unpaid');
        expect(await expiryOf(order.userId)).toBeNull();
        expect(await paymentsOf(order.order_id)).toEqual([]);
        expect(await refusals(reason)).toHaveLength(before.length + 1);
      });
    }

    it('a notify one fen short: no time, the payment waits for the operator', async () => {
      const order = await epayOrder();
      const money = ((order.amount - 1) / 100).toFixed(2);
      expect((await deliver(suite.standIn.notifyFields(order.order_id, { money }))).body).toBe('success');
      expect((await orderRow(order.order_id))?.status).toBe('unpaid');
      expect(await expiryOf(order.userId)).toBeNull();
      expect(await paymentsOf(order.order_id)).toMatchObject([
        { amount: order.amount - 1, outcome: 'amount_mismatch' },
      ]);
    });

    it('shows the refusals in the attention queue', async () => {
      const owner = await signedInStaff(t.app, t.database, 'finance');
      const attention = (await owner.call('GET', '/attention')).json().data;
      expect(JSON.stringify(attention)).toContain('notify_refused');
    });
  });

  it('finds a payment whose notify was lost when the buyer asks', async () => {
    const order = await epayOrder();
    suite.standIn.pay(order.order_id);
    const queried = await web('/web/order/query', { order_id: order.order_id }, order.token);
    expect(queried.json().data).toMatchObject({ order_id: order.order_id });
    expect((await orderRow(order.order_id))?.status).toBe('paid');
    expect(await paymentsOf(order.order_id)).toHaveLength(1);
  });

  it('finds a payment whose notify was lost in the orders job, once however often it runs', async () => {
    const order = await epayOrder();
    const unpaid = await epayOrder();
    suite.standIn.pay(order.order_id);
    expect(await runGatewayOrdersJob(t)).toMatchObject({ paymentsFound: 1, gatewaysUnreachable: 0 });
    expect((await orderRow(order.order_id))?.status).toBe('paid');
    expect((await orderRow(unpaid.order_id))?.status).toBe('unpaid');
    expect(await runGatewayOrdersJob(t)).toMatchObject({ paymentsFound: 0 });
    expect(await paymentsOf(order.order_id)).toHaveLength(1);
  });

  it('refuses a refund from the back office (Epay has no refund call), then records it refunded at the aggregator, keeping its time when the operator says so', async () => {
    const order = await epayOrder();
    expect((await deliver(suite.standIn.pay(order.order_id))).body).toBe('success');
    const paidUntil = await expiryOf(order.userId);
    const [payment] = await paymentsOf(order.order_id);
    const finance = await signedInStaff(t.app, t.database, 'finance');
    const refused = await finance.call('POST', `/payments/${payment?.id}/refund`, {
      time: 'take_back',
      reason: 'asked by the buyer',
    });
    expect(refused.json()).toMatchObject({ code: 409, data: { reason: 'refund_unavailable' } });
    const reply = await finance.call('POST', `/payments/${payment?.id}/refund-outside`, {
      time: 'keep',
      reason: 'refunded at the aggregator, time left as a courtesy',
    });
    expect(reply.json()).toMatchObject({ code: 200, data: { status: 'succeeded', seconds_taken: 0 } });
    expect(await expiryOf(order.userId)).toEqual(paidUntil);
    const ledger = await t.database.db
      .select()
      .from(expiryLedger)
      .where(and(eq(expiryLedger.userId, order.userId), eq(expiryLedger.reason, 'refund')));
    expect(ledger).toHaveLength(1);
    expect(await paymentsOf(order.order_id)).toMatchObject([{ settlement: 'refunded' }]);
  });

  it('refuses an order through a gateway turned off, or for a method it does not serve', async () => {
    const owner = await signedInStaff(t.app, t.database, 'owner');
    const cardless = await addEpayGateway(owner, suite.standIn, { methods: ['wxpay'] });
    const { token } = await signedInUser(t.database);
    const create = (gateway: string, pay_method: string) =>
      web('/web/order/create', { period: 'month', connections: 1, pay_method, gateway_id: gateway }, token);
    expect((await create(cardless, 'alipay')).json()).toMatchObject({
      code: 400,
      data: { field: 'gateway_id' },
    });
    await owner.call('PATCH', `/gateways/${cardless}`, { enabled: false });
    expect((await create(cardless, 'wechat_pay')).json()).toMatchObject({
      code: 400,
      data: { field: 'gateway_id' },
    });
  });

  it('limits notifies per address, outside the call ceiling', async () => {
    const address = newClientAddress();
    const fields = suite.standIn.notifyFields('20260101000000ratelimited');
    let last = 0;
    for (let i = 0; i <= NOTIFY_PER_MINUTE; i++) {
      last = (
        await t.app.inject({
          method: 'GET',
          url: `${notifyPath()}?${new URLSearchParams(fields)}`,
          remoteAddress: address,
        })
      ).statusCode;
    }
    expect(last).toBe(429);
  });

  it('keeps the merchant key out of every reply, log line and audit row', async () => {
    await t.close();
    const all = lines.join('\n');
    expect(all.length).toBeGreaterThan(0);
    expect(all).not.toContain(suite.standIn.key);
  });
});

describe.runIf(testDatabaseKind === 'postgres')('Epay on two instances', () => {
  const two = useGatewayOnTwoInstances(ENV, startEpayServer, addEpayGateway);
  itCreditsOnceOnTwoInstances(two, {
    payMethod: 'alipay',
    notifyUrl: (id) => `/pay/epay/${id}/notify`,
    paidNotify: (standIn, orderId) => ({ form: standIn.pay(orderId) }),
    taken: 'success',
    opensCheckout: true,
  });
});
