import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { orders } from '../../db/schema/index.ts';
import { type EpayServer, startEpayServer } from '../../testing/epay-server.ts';
import { addEpayGateway, TEST_SECRETS_KEY } from '../../testing/gateways.ts';
import {
  describeOnTwoInstances,
  type GatewayUnderTest,
  itFindsLostNotifies,
  itGuardsTheNotifyRouteAndTheSecret,
  itRecordsRefundsOutside,
  itRefusesWhatChangesNothing,
  useGatewaySuite,
} from '../../testing/gateway-suites.ts';
import { signedInStaff } from '../../testing/staff.ts';
import { signedInUser, webCaller } from '../../testing/test-app.ts';
import { testDatabaseKind } from '../../testing/test-database.ts';

const ENV = { SECRETS_KEY: TEST_SECRETS_KEY, PUBLIC_URL: 'https://vpn.example.com' };

const EPAY: GatewayUnderTest<EpayServer> = {
  kind: 'epay',
  startStandIn: startEpayServer,
  addGateway: addEpayGateway,
  payMethod: 'alipay',
  notifyPath: (id) => `/pay/epay/${id}/notify`,
  notifyAs: 'form',
  taken: 'success',
  // The buyer's browser follows the jump to the aggregator's submit.php, which opens the order there.
  opensCheckout: true,
  secretOf: (epay) => epay.key,
};

describe('Epay gateways', () => {
  const suite = useGatewaySuite(ENV, EPAY);
  const { t, web, orderRow, expiryOf, paymentsOf, deliver } = suite;

  it('sends the buyer to submit.php with the order signed, and credits its notify once', async () => {
    const order = await suite.order();
    const url = new URL(order.checkout_url);
    expect(url.origin + url.pathname).toBe(`${suite.standIn.url}/submit.php`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      pid: suite.standIn.pid,
      type: 'alipay',
      out_trade_no: order.order_id,
      money: (order.amount / 100).toFixed(2),
      notify_url: `https://vpn.example.com${suite.notifyPath()}`,
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
    const order = await suite.order({ payMethod: 'wechat_pay' });
    expect(suite.standIn.orders.get(order.order_id)?.type).toBe('wxpay');
    const reply = await deliver(suite.standIn.pay(order.order_id), { method: 'GET' });
    expect(reply.body).toBe('success');
    expect((await orderRow(order.order_id))?.status).toBe('paid');
  });

  it('credits a paid notify for an order cancelled meanwhile', async () => {
    const order = await suite.order();
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
      const notify = new URLSearchParams(suite.standIn.pay(order.order_id)).toString();
      const reply = await t.app.inject({
        method: 'POST',
        url: `/pay/epay/${gatewayId}/notify`,
        payload: notify,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
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
    itRefusesWhatChangesNothing(suite, EPAY, {
      forgeries: [
        {
          what: 'signed with another key',
          reason: 'bad_signature',
          forge: (o) => suite.standIn.notifyFields(o.order_id, {}, 'someone-elses-key'),
          answer: 'fail',
        },
        {
          what: 'its signature changed',
          reason: 'bad_signature',
          forge: (o) => ({ ...suite.standIn.notifyFields(o.order_id), money: '0.01' }),
          answer: 'fail',
        },
        {
          what: 'for another merchant',
          reason: 'foreign_merchant',
          forge: (o) => suite.standIn.notifyFields(o.order_id, { pid: '999999' }),
          answer: 'fail',
        },
        {
          what: 'not paid',
          reason: 'wrong_status',
          forge: (o) => suite.standIn.notifyFields(o.order_id, { trade_status: 'WAIT_BUYER_PAY' }),
          answer: 'success',
        },
        {
          what: 'for no order of ours',
          reason: 'unknown_order',
          forge: () => suite.standIn.notifyFields('20260101000000nosuchorder'),
          answer: 'success',
        },
      ],
      short: (o) => suite.standIn.notifyFields(o.order_id, { money: ((o.amount - 1) / 100).toFixed(2) }),
    });

    it('shows the refusals in the attention queue', async () => {
      const owner = await signedInStaff(t.app, t.database, 'finance');
      const attention = (await owner.call('GET', '/attention')).json().data;
      expect(JSON.stringify(attention)).toContain('notify_refused');
    });
  });

  it('shows staff its orders and payments under the gateway’s names, and lists them by its provider', async () => {
    const order = await suite.order();
    expect((await deliver(suite.standIn.pay(order.order_id))).body).toBe('success');
    const finance = await signedInStaff(t.app, t.database, 'finance');
    const names = { en: 'Alipay (Epay)', zh: '支付宝（易支付）', tw: '支付寶（易支付）' };
    const query = `provider=${encodeURIComponent(suite.provider())}&size=100`;
    const orders = (await finance.call('GET', `/orders?${query}`)).json();
    expect(orders.code).toBe(200);
    expect(orders.data.items).toContainEqual(
      expect.objectContaining({ id: order.order_id, provider: suite.provider(), gateway_names: names }),
    );
    const payments = (await finance.call('GET', `/payments?${query}`)).json().data.items;
    expect(payments).toContainEqual(
      expect.objectContaining({ order_id: order.order_id, gateway_names: names }),
    );
    expect(payments.every((payment: { provider: string }) => payment.provider === suite.provider())).toBe(
      true,
    );
  });

  itFindsLostNotifies(suite, EPAY);
  itRecordsRefundsOutside(suite, EPAY);

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

  itGuardsTheNotifyRouteAndTheSecret(suite, EPAY);
});

if (testDatabaseKind === 'postgres') describeOnTwoInstances('Epay on two instances', ENV, EPAY);
