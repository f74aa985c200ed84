import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, providerNotices, refunds } from '../../db/schema/index.ts';
import { rsaKeyPair, startAlipayServer } from '../../testing/alipay-server.ts';
import { addAlipayGateway, runGatewayOrdersJob, TEST_SECRETS_KEY } from '../../testing/gateways.ts';
import {
  gatewayRecords,
  itCreditsOnceOnTwoInstances,
  useGatewaySuite,
  useGatewayOnTwoInstances,
} from '../../testing/gateway-suites.ts';
import { signedInStaff } from '../../testing/staff.ts';
import { newClientAddress, signedInUser } from '../../testing/test-app.ts';
import { testDatabaseKind } from '../../testing/test-database.ts';
import { NOTIFY_PER_MINUTE } from './gateway-notify.ts';

const ENV = { SECRETS_KEY: TEST_SECRETS_KEY, PUBLIC_URL: 'https://vpn.example.com' };

describe('Alipay face-to-face gateways', () => {
  const suite = useGatewaySuite(ENV, startAlipayServer, addAlipayGateway);
  const { lines, t, web } = suite;
  const notifyPath = () => `/pay/alipay/${suite.gatewayId}/notify`;

  /** A new buyer's order of a month for 2 connections through the gateway, precreated at Alipay. */
  async function alipayOrder(token?: string) {
    const buyer = token ? null : await signedInUser(t.database);
    const created = await web(
      '/web/order/create',
      { period: 'month', connections: 2, pay_method: 'alipay', gateway_id: suite.gatewayId },
      token ?? buyer?.token,
    );
    expect(created.statusCode, created.body).toBe(200);
    const order = created.json().data as { order_id: string; amount: number; checkout_url: string };
    return { ...order, userId: buyer?.user.id ?? '', token: token ?? buyer?.token ?? '' };
  }

  const deliver = (fields: Record<string, string>, app = t.app) =>
    app.inject({
      method: 'POST',
      url: notifyPath(),
      payload: new URLSearchParams(fields).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
      remoteAddress: newClientAddress(),
    });

  const { orderRow, expiryOf, paymentsOf, refusals } = gatewayRecords(
    () => t,
    () => `alipay_f2f:${suite.gatewayId}`,
  );

  it('precreates a signed trade whose QR code is the checkout, and credits its notify once', async () => {
    const order = await alipayOrder();
    const trade = suite.standIn.trades.get(order.order_id);
    expect(trade).toMatchObject({
      out_trade_no: order.order_id,
      total_amount: (order.amount / 100).toFixed(2),
      subject: order.order_id,
      notify_url: `https://vpn.example.com${notifyPath()}`,
    });
    expect(order.checkout_url).toBe(trade?.qr_code);
    expect(order.checkout_url).toMatch(/^https:\/\/qr\.alipay\.com\//);
    // The QR code stops taking payments with the order: its deadline, in China's time.
    const deadline = (await orderRow(order.order_id))?.latestPayAt;
    expect(trade?.time_expire).toBe(
      new Date((deadline?.getTime() ?? 0) + 8 * 3_600_000).toISOString().slice(0, 19).replace('T', ' '),
    );
    const call = suite.standIn.requests.find((request) => request.method === 'alipay.trade.precreate');
    expect(call?.params).toMatchObject({
      app_id: suite.standIn.appId,
      sign_type: 'RSA2',
      charset: 'utf-8',
      version: '1.0',
    });

    const reply = await deliver(suite.standIn.pay(order.order_id));
    expect(reply.statusCode).toBe(200);
    expect(reply.body).toBe('success');
    expect((await orderRow(order.order_id))?.status).toBe('paid');
    expect(await expiryOf(order.userId)).not.toBeNull();
    expect(await paymentsOf(order.order_id)).toMatchObject([
      {
        provider: `alipay_f2f:${suite.gatewayId}`,
        providerPaymentId: trade?.trade_no,
        amount: order.amount,
        outcome: 'credited',
      },
    ]);
  });

  it('credits TRADE_FINISHED, and a paid notify for an order cancelled meanwhile', async () => {
    const order = await alipayOrder();
    expect((await web('/web/order/cancel', { order_id: order.order_id }, order.token)).json().code).toBe(200);
    suite.standIn.pay(order.order_id);
    const finished = suite.standIn.notifyFields(order.order_id, { trade_status: 'TRADE_FINISHED' });
    expect((await deliver(finished)).body).toBe('success');
    expect((await orderRow(order.order_id))?.status).toBe('paid');
    expect(await expiryOf(order.userId)).not.toBeNull();
  });

  describe('notifies that change nothing', () => {
    it('a replay of a credited notify: answered, nothing credited again, not queued', async () => {
      const order = await alipayOrder();
      const fields = suite.standIn.pay(order.order_id);
      expect((await deliver(fields)).body).toBe('success');
      const expiry = await expiryOf(order.userId);
      const queued = (await t.database.db.select().from(providerNotices)).length;
      expect((await deliver(fields)).body).toBe('success');
      expect(await expiryOf(order.userId)).toEqual(expiry);
      expect(await paymentsOf(order.order_id)).toHaveLength(1);
      expect(await t.database.db.select().from(providerNotices)).toHaveLength(queued);
    });

    const stranger = rsaKeyPair().privateKey;
    const forgeries: [string, string, (order: string) => Record<string, string>, string][] = [
      [
        'signed with another key',
        'bad_signature',
        (o) => suite.standIn.notifyFields(o, {}, stranger),
        'fail',
      ],
      [
        'its amount changed after signing',
        'bad_signature',
        (o) => ({ ...suite.standIn.notifyFields(o), total_amount: '0.01' }),
        'fail',
      ],
      ['unsigned', 'bad_signature', (o) => ({ ...suite.standIn.notifyFields(o), sign: '' }), 'fail'],
      [
        'for another app',
        'foreign_merchant',
        (o) => suite.standIn.notifyFields(o, { app_id: '2021000000000001' }),
        'success',
      ],
      [
        'not paid',
        'wrong_status',
        (o) => suite.standIn.notifyFields(o, { trade_status: 'WAIT_BUYER_PAY' }),
        'success',
      ],
      [
        'closed',
        'wrong_status',
        (o) => suite.standIn.notifyFields(o, { trade_status: 'TRADE_CLOSED' }),
        'success',
      ],
      [
        'for no order of ours',
        'unknown_order',
        () => suite.standIn.notifyFields('20260101000000nosuchorder'),
        'success',
      ],
      [
        'without an amount that reads',
        'malformed',
        (o) => suite.standIn.notifyFields(o, { total_amount: '1e3' }),
        'success',
      ],
    ];
    for (const [what, reason, forge, answer] of forgeries) {
      it(`a notify ${what}: refused, and in the attention queue as ${reason}`, async () => {
        const order = await alipayOrder();
        const before = await refusals(reason);
        const fields = forge(order.order_id);
        const reply = await deliver(fields);
        expect(reply.body).toBe(answer);
        expect((await orderRow(order.order_id))?.status).toBe('unpaid');
        expect(await expiryOf(order.userId)).toBeNull();
        expect(await paymentsOf(order.order_id)).toEqual([]);
        const after = await refusals(reason);
        expect(after).toHaveLength(before.length + 1);
        const kept = after
          .map((row) => (row.detail as { fields: Record<string, string> }).fields)
          .find((one) => one.notify_id === fields.notify_id);
        expect(kept).toMatchObject({ out_trade_no: fields.out_trade_no, trade_status: fields.trade_status });
        expect(kept).not.toHaveProperty('sign');
      });
    }

    it('a notify one fen short: no time, the payment waits for the operator', async () => {
      const order = await alipayOrder();
      const short = ((order.amount - 1) / 100).toFixed(2);
      const fields = suite.standIn.notifyFields(order.order_id, {
        total_amount: short,
        receipt_amount: short,
      });
      expect((await deliver(fields)).body).toBe('success');
      expect((await orderRow(order.order_id))?.status).toBe('unpaid');
      expect(await expiryOf(order.userId)).toBeNull();
      expect(await paymentsOf(order.order_id)).toMatchObject([
        { amount: order.amount - 1, outcome: 'amount_mismatch' },
      ]);
    });

    it('answers fail at a gateway that is not Alipay face-to-face', async () => {
      const reply = await t.app.inject({
        method: 'POST',
        url: `/pay/alipay/00000000-0000-4000-8000-000000000000/notify`,
        payload: new URLSearchParams(suite.standIn.notifyFields('20260101000000nosuchorder')).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        remoteAddress: newClientAddress(),
      });
      expect(reply.body).toBe('fail');
    });
  });

  it('finds a payment whose notify was lost when the buyer asks', async () => {
    const order = await alipayOrder();
    suite.standIn.pay(order.order_id);
    const queried = await web('/web/order/query', { order_id: order.order_id }, order.token);
    expect(queried.json().data).toMatchObject({ order_id: order.order_id });
    expect((await orderRow(order.order_id))?.status).toBe('paid');
    expect(await paymentsOf(order.order_id)).toMatchObject([
      { providerPaymentId: suite.standIn.trades.get(order.order_id)?.trade_no, outcome: 'credited' },
    ]);
  });

  it('finds a payment whose notify was lost in the orders job, once however often it runs', async () => {
    const order = await alipayOrder();
    const scanned = await alipayOrder();
    const unscanned = await alipayOrder();
    suite.standIn.pay(order.order_id);
    suite.standIn.scan(scanned.order_id);
    expect(await runGatewayOrdersJob(t)).toMatchObject({
      paymentsFound: 1,
      gatewaysUnreachable: 0,
    });
    expect((await orderRow(order.order_id))?.status).toBe('paid');
    expect((await orderRow(scanned.order_id))?.status).toBe('unpaid');
    expect((await orderRow(unscanned.order_id))?.status).toBe('unpaid');
    expect(await runGatewayOrdersJob(t)).toMatchObject({ paymentsFound: 0 });
    expect(await paymentsOf(order.order_id)).toHaveLength(1);
    // The notify arriving after all changes nothing.
    expect((await deliver(suite.standIn.notifyFields(order.order_id))).body).toBe('success');
    expect(await paymentsOf(order.order_id)).toHaveLength(1);
  });

  it('closes the trade of an order a newer order replaced', async () => {
    const first = await alipayOrder();
    suite.standIn.scan(first.order_id);
    const newer = await alipayOrder(first.token);
    expect((await orderRow(first.order_id))?.status).toBe('cancelled');
    expect(suite.standIn.trades.get(first.order_id)?.trade_status).toBe('TRADE_CLOSED');
    expect(suite.standIn.requests.filter((r) => r.method === 'alipay.trade.close').at(-1)?.biz).toEqual({
      out_trade_no: first.order_id,
    });
    // A QR code never scanned has no trade at Alipay: nothing to close, and nothing left due.
    await alipayOrder(first.token);
    expect((await orderRow(newer.order_id))?.checkoutCloseDueAt).toBeNull();
  });

  it('refuses an order for a method Alipay face-to-face does not serve', async () => {
    const { token } = await signedInUser(t.database);
    const reply = await web(
      '/web/order/create',
      { period: 'month', connections: 1, pay_method: 'wechat_pay', gateway_id: suite.gatewayId },
      token,
    );
    expect(reply.json()).toMatchObject({ code: 400, data: { field: 'gateway_id' } });
  });

  describe('refunds from the back office', () => {
    async function paidOrder() {
      const order = await alipayOrder();
      expect((await deliver(suite.standIn.pay(order.order_id))).body).toBe('success');
      const [payment] = await paymentsOf(order.order_id);
      if (!payment) throw new Error('no payment');
      return { order, payment };
    }

    it('refunds through Alipay under the refund’s id, and takes the time back', async () => {
      const finance = await signedInStaff(t.app, t.database, 'finance');
      const { order, payment } = await paidOrder();
      const reply = await finance.call('POST', `/payments/${payment.id}/refund`, {
        time: 'take_back',
        reason: 'asked by the buyer',
      });
      expect(reply.json()).toMatchObject({ code: 200, data: { status: 'succeeded' } });
      expect(reply.json().data.seconds_taken).toBeGreaterThan(0);
      const [refund] = await t.database.db.select().from(refunds).where(eq(refunds.paymentId, payment.id));
      const asked = suite.standIn.requests.filter((r) => r.method === 'alipay.trade.refund');
      expect(asked.at(-1)?.biz).toEqual({
        trade_no: payment.providerPaymentId,
        refund_amount: (order.amount / 100).toFixed(2),
        out_request_no: refund?.id,
      });
      expect(suite.standIn.trades.get(order.order_id)?.refunds.get(refund?.id ?? '')).toBe(
        (order.amount / 100).toFixed(2),
      );
      const expiry = await expiryOf(order.userId);
      expect(expiry === null || expiry.getTime() <= Date.now() + 1000).toBe(true);
      const again = await finance.call('POST', `/payments/${payment.id}/refund`, {
        time: 'take_back',
        reason: 'again',
      });
      expect(again.json()).toMatchObject({ code: 409, data: { reason: 'already_refunded' } });
      expect(suite.standIn.requests.filter((r) => r.method === 'alipay.trade.refund')).toHaveLength(
        asked.length,
      );
    });

    it('keeps the time when the operator says so, and is not recorded as refunded outside', async () => {
      const finance = await signedInStaff(t.app, t.database, 'finance');
      const { order, payment } = await paidOrder();
      const expiry = await expiryOf(order.userId);
      const outside = await finance.call('POST', `/payments/${payment.id}/refund-outside`, {
        time: 'keep',
        reason: 'refunded in Alipay',
      });
      expect(outside.json()).toMatchObject({ code: 409, data: { reason: 'refund_through_provider' } });
      const reply = await finance.call('POST', `/payments/${payment.id}/refund`, {
        time: 'keep',
        reason: 'goodwill',
      });
      expect(reply.json()).toMatchObject({ code: 200, data: { status: 'succeeded', seconds_taken: 0 } });
      expect(await expiryOf(order.userId)).toEqual(expiry);
    });

    it('marks a refund Alipay refuses as failed, with Alipay’s words, and changes no time', async () => {
      const finance = await signedInStaff(t.app, t.database, 'finance');
      const { order, payment } = await paidOrder();
      const expiry = await expiryOf(order.userId);
      suite.standIn.refuseRefunds = { sub_code: 'ACQ.SELLER_BALANCE_NOT_ENOUGH', sub_msg: '卖家余额不足' };
      try {
        const reply = await finance.call('POST', `/payments/${payment.id}/refund`, {
          time: 'take_back',
          reason: 'asked by the buyer',
        });
        expect(reply.json()).toMatchObject({ code: 409, data: { reason: 'refund_refused' } });
      } finally {
        suite.standIn.refuseRefunds = null;
      }
      const [refund] = await t.database.db.select().from(refunds).where(eq(refunds.paymentId, payment.id));
      expect(refund).toMatchObject({ status: 'failed', error: '卖家余额不足' });
      expect(await expiryOf(order.userId)).toEqual(expiry);
    });
  });

  it('limits notifies per address, outside the call ceiling', async () => {
    const address = newClientAddress();
    const body = new URLSearchParams(suite.standIn.notifyFields('20260101000000ratelimited')).toString();
    let last = 0;
    for (let i = 0; i <= NOTIFY_PER_MINUTE; i++) {
      last = (
        await t.app.inject({
          method: 'POST',
          url: notifyPath(),
          payload: body,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          remoteAddress: address,
        })
      ).statusCode;
    }
    expect(last).toBe(429);
  });

  it('keeps the app’s private key out of every reply, log line and audit row', async () => {
    const audit = await t.database.db.select().from(auditLog).where(eq(auditLog.targetId, suite.gatewayId));
    expect(audit).not.toHaveLength(0);
    expect(JSON.stringify(audit)).not.toContain(suite.standIn.appPrivateKey.slice(40, 100));
    await t.close();
    const all = lines.join('\n');
    expect(all.length).toBeGreaterThan(0);
    expect(all).not.toContain(suite.standIn.appPrivateKey.slice(40, 100));
  });
});

describe.runIf(testDatabaseKind === 'postgres')('Alipay face-to-face on two instances', () => {
  const two = useGatewayOnTwoInstances(ENV, startAlipayServer, addAlipayGateway);
  itCreditsOnceOnTwoInstances(two, {
    payMethod: 'alipay',
    notifyUrl: (id) => `/pay/alipay/${id}/notify`,
    paidNotify: (standIn, orderId) => ({ form: standIn.pay(orderId) }),
    taken: 'success',
  });
});
