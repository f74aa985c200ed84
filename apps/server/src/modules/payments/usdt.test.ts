import { describe, expect, it } from 'vitest';
import { type EpusdtServer, startEpusdtServer, TEST_USDT_RATE } from '../../testing/epusdt-server.ts';
import { addEpusdtGateway, TEST_SECRETS_KEY } from '../../testing/gateways.ts';
import {
  describeOnTwoInstances,
  type GatewayUnderTest,
  itFindsLostNotifies,
  itGuardsTheNotifyRouteAndTheSecret,
  itRecordsRefundsOutside,
  itRefusesWhatChangesNothing,
  useGatewaySuite,
} from '../../testing/gateway-suites.ts';
import { signedInUser } from '../../testing/test-app.ts';
import { testDatabaseKind } from '../../testing/test-database.ts';

const ENV = { SECRETS_KEY: TEST_SECRETS_KEY, PUBLIC_URL: 'https://vpn.example.com' };

/** The USDT the stand-in asks for an amount in fen, as the order keeps it. */
const usdtOf = (fen: number) => String(Math.round((fen / 100 / TEST_USDT_RATE) * 10_000) / 10_000);

const USDT: GatewayUnderTest<EpusdtServer> = {
  kind: 'epusdt',
  startStandIn: startEpusdtServer,
  addGateway: addEpusdtGateway,
  payMethod: 'usdt',
  notifyPath: (id) => `/pay/usdt/${id}/notify`,
  notifyAs: 'json',
  taken: 'ok',
  secretOf: (epusdt) => epusdt.token,
};

describe('USDT gateways (EPUSDT API)', () => {
  const suite = useGatewaySuite(ENV, USDT);
  const { t, web, orderRow, expiryOf, paymentsOf, deliver } = suite;

  it('opens a signed transaction, keeps the USDT amount shown, and credits its callback once', async () => {
    const order = await suite.order();
    const trade = suite.standIn.transactions.get(order.order_id);
    expect(trade).toMatchObject({
      amount: order.amount / 100,
      notify_url: `https://vpn.example.com${suite.notifyPath()}`,
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
    itRefusesWhatChangesNothing(suite, USDT, {
      forgeries: [
        {
          what: 'signed with another token',
          reason: 'bad_signature',
          forge: (o) => suite.standIn.callback(o.order_id, {}, 'not-the-token'),
          answer: 'fail',
        },
        {
          what: 'its signature changed',
          reason: 'bad_signature',
          forge: (o) => ({ ...suite.standIn.callback(o.order_id), actual_amount: 0.01 }),
          answer: 'fail',
        },
        {
          what: 'for another trade',
          reason: 'other_trade',
          forge: (o) => suite.standIn.callback(o.order_id, { trade_id: '2026othertrade' }),
          answer: 'ok',
        },
        {
          what: 'for another USDT amount',
          reason: 'wrong_usdt_amount',
          forge: (o) =>
            suite.standIn.callback(o.order_id, {
              actual_amount: (Number(usdtOf(o.amount)) * 10_000 - 1) / 10_000,
            }),
          answer: 'ok',
        },
        {
          what: 'not paid',
          reason: 'wrong_status',
          forge: (o) => suite.standIn.callback(o.order_id, { status: 1 }),
          answer: 'ok',
        },
        {
          what: 'expired',
          reason: 'wrong_status',
          forge: (o) => suite.standIn.callback(o.order_id, { status: 3 }),
          answer: 'ok',
        },
        {
          what: 'for no order of ours',
          reason: 'unknown_order',
          forge: () => suite.standIn.callback('20260101000000nosuchorder'),
          answer: 'ok',
        },
      ],
      short: (o) => suite.standIn.callback(o.order_id, { amount: (o.amount - 1) / 100 }),
    });
  });

  itFindsLostNotifies(suite, USDT);
  itRecordsRefundsOutside(suite, USDT);

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

  itGuardsTheNotifyRouteAndTheSecret(suite, USDT);
});

if (testDatabaseKind === 'postgres') describeOnTwoInstances('USDT on two instances', ENV, USDT);
