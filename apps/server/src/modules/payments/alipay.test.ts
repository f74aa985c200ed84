import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { refunds } from '../../db/schema/index.ts';
import { type AlipayServer, rsaKeyPair, startAlipayServer } from '../../testing/alipay-server.ts';
import { addAlipayGateway, runGatewayOrdersJob, TEST_SECRETS_KEY } from '../../testing/gateways.ts';
import {
  describeOnTwoInstances,
  type GatewayUnderTest,
  itFindsLostNotifies,
  itGuardsTheNotifyRouteAndTheSecret,
  itRefusesWhatChangesNothing,
  useGatewaySuite,
} from '../../testing/gateway-suites.ts';
import { signedInStaff } from '../../testing/staff.ts';
import { newClientAddress, signedInUser } from '../../testing/test-app.ts';
import { testDatabaseKind } from '../../testing/test-database.ts';

const ENV = { SECRETS_KEY: TEST_SECRETS_KEY, PUBLIC_URL: 'https://vpn.example.com' };

const ALIPAY: GatewayUnderTest<AlipayServer> = {
  kind: 'alipay_f2f',
  startStandIn: startAlipayServer,
  addGateway: addAlipayGateway,
  payMethod: 'alipay',
  notifyPath: (id) => `/pay/alipay/${id}/notify`,
  notifyAs: 'form',
  taken: 'success',
  // A part of the app's private key: the whole, with its PEM lines, is never sent anyway.
  secretOf: (alipay) => alipay.appPrivateKey.slice(40, 100),
};

describe('Alipay face-to-face gateways', () => {
  const suite = useGatewaySuite(ENV, ALIPAY);
  const { t, web, orderRow, expiryOf, paymentsOf, deliver } = suite;

  it('precreates a signed trade whose QR code is the checkout, and credits its notify once', async () => {
    const order = await suite.order();
    const trade = suite.standIn.trades.get(order.order_id);
    expect(trade).toMatchObject({
      out_trade_no: order.order_id,
      total_amount: (order.amount / 100).toFixed(2),
      subject: order.order_id,
      notify_url: `https://vpn.example.com${suite.notifyPath()}`,
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
    const order = await suite.order();
    expect((await web('/web/order/cancel', { order_id: order.order_id }, order.token)).json().code).toBe(200);
    suite.standIn.pay(order.order_id);
    const finished = suite.standIn.notifyFields(order.order_id, { trade_status: 'TRADE_FINISHED' });
    expect((await deliver(finished)).body).toBe('success');
    expect((await orderRow(order.order_id))?.status).toBe('paid');
    expect(await expiryOf(order.userId)).not.toBeNull();
  });

  describe('notifies that change nothing', () => {
    const stranger = rsaKeyPair().privateKey;
    itRefusesWhatChangesNothing(suite, ALIPAY, {
      forgeries: [
        {
          what: 'signed with another key',
          reason: 'bad_signature',
          forge: (o) => suite.standIn.notifyFields(o.order_id, {}, stranger),
          answer: 'fail',
        },
        {
          what: 'its amount changed after signing',
          reason: 'bad_signature',
          forge: (o) => ({ ...suite.standIn.notifyFields(o.order_id), total_amount: '0.01' }),
          answer: 'fail',
        },
        {
          what: 'unsigned',
          reason: 'bad_signature',
          forge: (o) => ({ ...suite.standIn.notifyFields(o.order_id), sign: '' }),
          answer: 'fail',
        },
        {
          what: 'for another app',
          reason: 'foreign_merchant',
          forge: (o) => suite.standIn.notifyFields(o.order_id, { app_id: '2021000000000001' }),
          answer: 'success',
        },
        {
          what: 'not paid',
          reason: 'wrong_status',
          forge: (o) => suite.standIn.notifyFields(o.order_id, { trade_status: 'WAIT_BUYER_PAY' }),
          answer: 'success',
        },
        {
          what: 'closed',
          reason: 'wrong_status',
          forge: (o) => suite.standIn.notifyFields(o.order_id, { trade_status: 'TRADE_CLOSED' }),
          answer: 'success',
        },
        {
          what: 'for no order of ours',
          reason: 'unknown_order',
          forge: () => suite.standIn.notifyFields('20260101000000nosuchorder'),
          answer: 'success',
        },
        {
          what: 'without an amount that reads',
          reason: 'malformed',
          forge: (o) => suite.standIn.notifyFields(o.order_id, { total_amount: '1e3' }),
          answer: 'success',
        },
      ],
      short: (o) => {
        const short = ((o.amount - 1) / 100).toFixed(2);
        return suite.standIn.notifyFields(o.order_id, { total_amount: short, receipt_amount: short });
      },
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

  itFindsLostNotifies(suite, ALIPAY);

  it('takes a QR code scanned but not paid for no payment', async () => {
    const scanned = await suite.order();
    suite.standIn.scan(scanned.order_id);
    expect(await runGatewayOrdersJob(t)).toMatchObject({ gatewaysUnreachable: 0 });
    expect((await orderRow(scanned.order_id))?.status).toBe('unpaid');
    expect(await paymentsOf(scanned.order_id)).toEqual([]);
  });

  it('closes the trade of an order a newer order replaced', async () => {
    const first = await suite.order();
    suite.standIn.scan(first.order_id);
    const newer = await suite.order({ token: first.token });
    expect((await orderRow(first.order_id))?.status).toBe('cancelled');
    expect(suite.standIn.trades.get(first.order_id)?.trade_status).toBe('TRADE_CLOSED');
    expect(suite.standIn.requests.filter((r) => r.method === 'alipay.trade.close').at(-1)?.biz).toEqual({
      out_trade_no: first.order_id,
    });
    // A QR code never scanned has no trade at Alipay: nothing to close, and nothing left due.
    await suite.order({ token: first.token });
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
      const order = await suite.order();
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

  itGuardsTheNotifyRouteAndTheSecret(suite, ALIPAY);
});

if (testDatabaseKind === 'postgres') {
  describeOnTwoInstances('Alipay face-to-face on two instances', ENV, ALIPAY);
}
