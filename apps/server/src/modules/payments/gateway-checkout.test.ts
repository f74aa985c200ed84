import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayFee } from '@skyway/shared/money';
import { orders, payments } from '../../db/schema/index.ts';
import { type EpayServer, startEpayServer } from '../../testing/epay-server.ts';
import { addEpayGateway, TEST_SECRETS_KEY } from '../../testing/gateways.ts';
import { signedInStaff } from '../../testing/staff.ts';
import { newClientAddress, signedInUser, useTestApp, webCaller } from '../../testing/test-app.ts';
import { setUnitPrice } from '../orders/plans-repository.ts';

const ENV = { SECRETS_KEY: TEST_SECRETS_KEY, PUBLIC_URL: 'https://vpn.example.com' };

describe('the buy page’s gateways', () => {
  const t = useTestApp(ENV);
  const web = webCaller(() => t.app, newClientAddress);
  let epay: EpayServer;
  /** Alipay and WeChat Pay with a fee of 1.5 %, second by position. */
  let feeing: string;
  /** WeChat Pay without a fee, first by position. */
  let free: string;
  /** Alipay, turned off. */
  let off: string;

  beforeAll(async () => {
    epay = await startEpayServer();
    await setUnitPrice(t.database.db, 'month', 2500);
    const owner = await signedInStaff(t.app, t.database, 'owner');
    feeing = await addEpayGateway(owner, epay, { position: 5, fee_bps: 150 });
    free = await addEpayGateway(owner, epay, {
      position: 1,
      methods: ['wxpay'],
      names: { en: 'WeChat Pay', zh: '微信支付', tw: '微信支付' },
    });
    off = await addEpayGateway(owner, epay, { position: 0, methods: ['alipay'], enabled: false });
  });
  afterAll(() => epay.close());

  const planList = async (language: string) => {
    const reply = await t.app.inject({
      method: 'POST',
      url: '/web/plan/list',
      payload: {},
      headers: { 'accept-language': language },
      remoteAddress: newClientAddress(),
    });
    expect(reply.statusCode, reply.body).toBe(200);
    return reply.json().data as { pay_methods: string[]; pay_options: object[] };
  };

  it('lists the site’s own methods, then each enabled gateway’s in position order, named in the buyer’s language', async () => {
    const list = await planList('zh-CN');
    // What clients without gateways read stays as it was.
    expect(list.pay_methods).toEqual(['alipay', 'wechat_pay', 'card']);
    expect(list.pay_options).toEqual([
      { pay_method: 'alipay', gateway_id: null, name: null, fee_bps: 0 },
      { pay_method: 'wechat_pay', gateway_id: null, name: null, fee_bps: 0 },
      { pay_method: 'card', gateway_id: null, name: null, fee_bps: 0 },
      { pay_method: 'wechat_pay', gateway_id: free, name: '微信支付', fee_bps: 0 },
      { pay_method: 'alipay', gateway_id: feeing, name: '支付宝（易支付）', fee_bps: 150 },
      { pay_method: 'wechat_pay', gateway_id: feeing, name: '支付宝（易支付）', fee_bps: 150 },
    ]);
    expect(JSON.stringify(list)).not.toContain(off);
    expect((await planList('en')).pay_options).toContainEqual({
      pay_method: 'alipay',
      gateway_id: feeing,
      name: 'Alipay (Epay)',
      fee_bps: 150,
    });
  });

  it('rounds the fee half up to the fen', () => {
    expect(gatewayFee(7500, 150)).toBe(113); // 112.5
    expect(gatewayFee(2500, 149)).toBe(37); // 37.25
    expect(gatewayFee(2500, 0)).toBe(0);
    expect(gatewayFee(2500, 2000)).toBe(500);
  });

  it('takes a coupon off first and puts the fee on what is left; a free order opens no checkout', async () => {
    const owner = await signedInStaff(t.app, t.database, 'owner');
    await owner.call('POST', '/coupons', { code: 'GATEWAY-20', kind: 'percent', value: 20 });
    await owner.call('POST', '/coupons', { code: 'GATEWAY-ALL', kind: 'percent', value: 100 });
    const create = async (coupon_code: string) =>
      (
        await web(
          '/web/order/create',
          { period: 'month', connections: 3, pay_method: 'alipay', gateway_id: feeing, coupon_code },
          (await signedInUser(t.database)).token,
        )
      ).json().data as { amount: number; discount: number; fee: number; checkout_url: string; paid: boolean };
    // 7 500 less 20 % is 6 000; 1.5 % of that is 90.
    const discounted = await create('gateway-20');
    expect(discounted).toMatchObject({ amount: 6090, discount: 1500, fee: 90, paid: false });
    expect(new URL(discounted.checkout_url).searchParams.get('money')).toBe('60.90');
    expect(await create('GATEWAY-ALL')).toMatchObject({
      amount: 0,
      discount: 7500,
      fee: 0,
      checkout_url: '',
      paid: true,
    });
  });

  it('adds the gateway’s fee to the order, and credits only a payment of the whole amount', async () => {
    const { token } = await signedInUser(t.database);
    const created = await web(
      '/web/order/create',
      { period: 'month', connections: 3, pay_method: 'alipay', gateway_id: feeing },
      token,
    );
    expect(created.statusCode, created.body).toBe(200);
    const order = created.json().data as {
      order_id: string;
      amount: number;
      fee: number;
      checkout_url: string;
    };
    expect(order).toMatchObject({ amount: 7613, fee: 113 });
    expect(new URL(order.checkout_url).searchParams.get('money')).toBe('76.13');
    await fetch(order.checkout_url);

    const notify = (fields: Record<string, string>) =>
      t.app.inject({
        method: 'POST',
        url: `/pay/epay/${feeing}/notify`,
        payload: new URLSearchParams(fields).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        remoteAddress: newClientAddress(),
      });
    // The price without its fee is an underpayment.
    await notify(epay.notifyFields(order.order_id, { money: '75.00', trade_no: 'short1' }));
    const row = async () =>
      (await t.database.db.select().from(orders).where(eq(orders.id, order.order_id)))[0];
    expect((await row())?.status).toBe('unpaid');
    expect((await notify(epay.pay(order.order_id))).body).toBe('success');
    expect((await row())?.status).toBe('paid');
    expect(
      (await t.database.db.select().from(payments).where(eq(payments.orderId, order.order_id))).map(
        (payment) => [payment.amount, payment.outcome],
      ),
    ).toEqual(
      expect.arrayContaining([
        [7500, 'amount_mismatch'],
        [7613, 'credited'],
      ]),
    );
  });

  it('charges no fee through a gateway without one, nor through the site’s own provider', async () => {
    const { token } = await signedInUser(t.database);
    const through = async (request: object) =>
      (await web('/web/order/create', { period: 'month', connections: 1, ...request }, token)).json().data;
    expect(await through({ pay_method: 'wechat_pay', gateway_id: free })).toMatchObject({
      amount: 2500,
      fee: 0,
    });
    expect(await through({ pay_method: 'alipay' })).toMatchObject({ amount: 2500, fee: 0 });
  });

  it('refuses a gateway turned off, or one that does not serve the method', async () => {
    const { token } = await signedInUser(t.database);
    const create = (gateway_id: string, pay_method: string) =>
      web('/web/order/create', { period: 'month', connections: 1, pay_method, gateway_id }, token);
    for (const [gateway, method] of [
      [off, 'alipay'],
      [free, 'alipay'],
      [feeing, 'card'],
    ] as const) {
      expect((await create(gateway, method)).json()).toMatchObject({
        code: 400,
        data: { field: 'gateway_id' },
      });
    }
  });
});
