import { and, eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { toUnixSeconds } from '@skyway/shared/dates';
import type { Order } from '@skyway/shared/plans';
import { expiryLedger, orders, payments, users } from '../../db/schema/index.ts';
import { runOrdersJob } from './orders-job.ts';
import { newClientAddress, signedInUser, useTestApp, webCaller } from '../../testing/test-app.ts';
import { testDatabaseKind } from '../../testing/test-database.ts';
import { fulfilPayment } from './fulfilment.ts';
import { createSandboxProvider } from '../payments/sandbox.ts';
import { resetSetting, writeSetting } from '../settings/repository.ts';
import { setUnitPrice } from './plans-repository.ts';
import { fulfilDeps } from '../../testing/payments.ts';

const DAY = 86_400;

describe('plans and orders', () => {
  const t = useTestApp();
  let ip: string;

  beforeEach(async () => {
    ip = newClientAddress();
    for (const key of ['max_connections', 'order_pay_minutes'] as const)
      await resetSetting(t.database.db, key);
    await setUnitPrice(t.database.db, 'month', 2500);
  });

  const call = webCaller(
    () => t.app,
    () => ip,
  );

  async function buy(token: string, period = 'month', connections = 1) {
    const reply = await call('/web/order/create', { period, connections, pay_method: 'card' }, token);
    expect(reply.json().code).toBe(200);
    return reply.json().data as {
      order_id: string;
      amount: number;
      latest_pay_time: number;
      checkout_url: string;
    };
  }

  const checkoutPath = (url: string) => new URL(url, 'http://site').pathname;

  async function payInSandbox(checkoutUrl: string) {
    // As the page's form posts it: urlencoded, with nothing in it.
    return t.app.inject({
      method: 'POST',
      url: `${checkoutPath(checkoutUrl)}/pay`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
      remoteAddress: ip,
    });
  }

  async function userInfo(token: string) {
    return (await call('/web/user/info', {}, token)).json().data as {
      expire_user: number;
      connections: number;
      subscribe_type: number;
      pending_connections: number | null;
      pending_from: number;
    };
  }

  async function query(token: string, orderId: string) {
    return (await call('/web/order/query', { order_id: orderId }, token)).json().data as Order;
  }

  it('lists the three plans at the default prices, with the connection limit and the sandbox’s methods', async () => {
    const reply = await call('/web/plan/list');
    expect(reply.json()).toMatchObject({
      code: 200,
      data: {
        currency: 'CNY',
        max_connections: 10,
        plans: [
          { period: 'month', months: 1, days: 31, unit_price: 2500 },
          { period: 'half_year', months: 6, days: 183, unit_price: 13_800 },
          { period: 'year', months: 12, days: 366, unit_price: 25_800 },
        ],
        // The sandbox simulates every method, in the order the buy page offers them.
        pay_methods: ['alipay', 'wechat_pay', 'card'],
      },
    });
  });

  it('keeps the chosen payment method on the order and in every order reply', async () => {
    const { token } = await signedInUser(t.database);
    const created = await call(
      '/web/order/create',
      { period: 'month', connections: 1, pay_method: 'alipay' },
      token,
    );
    const orderId = created.json().data.order_id as string;
    const [row] = await t.database.db.select().from(orders).where(eq(orders.id, orderId));
    expect(row?.payMethod).toBe('alipay');
    expect(await query(token, orderId)).toMatchObject({ order_id: orderId, pay_method: 'alipay' });
    const newer = await buy(token);
    const list = (await call('/web/order/list', { page: 1, size: 10 }, token)).json().data.list as Order[];
    expect(list.map((order) => [order.order_id, order.pay_method])).toEqual([
      [newer.order_id, 'card'],
      [orderId, 'alipay'],
    ]);
  });

  it('prices an order on the server and never takes an amount from the client', async () => {
    const { token } = await signedInUser(t.database);
    const reply = await call(
      '/web/order/create',
      { period: 'half_year', connections: 3, pay_method: 'card', amount: 1, unit_price: 1 },
      token,
    );
    expect(reply.json().data.amount).toBe(13_800 * 3);
    const [row] = await t.database.db.select().from(orders).where(eq(orders.id, reply.json().data.order_id));
    expect(row).toMatchObject({ amount: 41_400, unitPrice: 13_800, days: 183, months: 6, connections: 3 });
  });

  it('keeps the price an order was created at when the operator changes it', async () => {
    const { token } = await signedInUser(t.database);
    const before = await buy(token, 'month', 2);
    await setUnitPrice(t.database.db, 'month', 3000);
    await expect(setUnitPrice(t.database.db, 'month', 0)).rejects.toThrow(/whole number of fen/);
    await expect(setUnitPrice(t.database.db, 'month', 12.5)).rejects.toThrow(/whole number of fen/);
    expect((await call('/web/plan/list')).json().data.plans[0].unit_price).toBe(3000);
    const after = await buy(token, 'month', 2);
    expect([before.amount, after.amount]).toEqual([5000, 6000]);
    expect((await query(token, before.order_id)).amount).toBe(5000);
  });

  it('refuses bad input with the field named, creating nothing', async () => {
    const { user, token } = await signedInUser(t.database);
    await writeSetting(t.database.db, 'max_connections', '4');
    const cases: [object, string][] = [
      [{ period: 'month', connections: 5, pay_method: 'card' }, 'connections'],
      [{ period: 'month', connections: 0, pay_method: 'card' }, 'connections'],
      [{ period: 'month', connections: 1.5, pay_method: 'card' }, 'connections'],
      [{ period: 'week', connections: 1, pay_method: 'card' }, 'period'],
      [{ period: 'month', connections: 1, pay_method: 'cash' }, 'pay_method'],
    ];
    for (const [payload, field] of cases) {
      const reply = await call('/web/order/create', payload, token);
      expect(reply.statusCode).toBe(400);
      expect(reply.json()).toMatchObject({ code: 400, data: { field } });
    }
    const zh = await t.app.inject({
      method: 'POST',
      url: '/web/order/create',
      payload: { period: 'month', connections: 5, l: 'zh-cn' },
      headers: { authorization: token },
    });
    expect(zh.json().msg).toBe('连接数格式不正确');
    expect(await t.database.db.select().from(orders).where(eq(orders.userId, user.id))).toHaveLength(0);
    expect((await call('/web/order/create', { period: 'month', connections: 1 })).statusCode).toBe(401);
  });

  it('gives a new order 30 minutes to pay and cancels the open one it replaces', async () => {
    const { token } = await signedInUser(t.database);
    const startedAt = Math.floor(Date.now() / 1000);
    const first = await buy(token);
    expect(first.latest_pay_time - startedAt).toBeGreaterThanOrEqual(30 * 60 - 1);
    expect(first.latest_pay_time - startedAt).toBeLessThanOrEqual(30 * 60 + 1);
    const second = await buy(token, 'year');
    const list = (await call('/web/order/list', { page: 1, size: 10 }, token)).json().data;
    expect(list.total).toBe(2);
    expect(list.list.map((order: Order) => [order.order_id, order.status])).toEqual([
      [second.order_id, 'unpaid'],
      [first.order_id, 'cancelled'],
    ]);
    expect(list.list[0].checkout_url).toBe(second.checkout_url);
    expect(list.list[1].checkout_url).toBeNull();
  });

  it('pages the list newest first', async () => {
    const { token } = await signedInUser(t.database);
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await buy(token)).order_id);
    const page1 = (await call('/web/order/list', { page: 1, size: 2 }, token)).json().data;
    const page2 = (await call('/web/order/list', { page: 2, size: 2 }, token)).json().data;
    expect(page1.total).toBe(3);
    expect([...page1.list, ...page2.list].map((order: Order) => order.order_id)).toEqual(ids.reverse());
  });

  it('shows an order only to its owner, and cancels only one that can still be paid', async () => {
    const owner = await signedInUser(t.database);
    const stranger = await signedInUser(t.database);
    const order = await buy(owner.token);
    for (const url of ['/web/order/query', '/web/order/cancel']) {
      const reply = await call(url, { order_id: order.order_id }, stranger.token);
      expect(reply.json()).toMatchObject({ code: 404, data: { reason: 'order_not_found' } });
    }
    expect((await call('/web/order/cancel', { order_id: order.order_id }, owner.token)).json().code).toBe(
      200,
    );
    expect((await query(owner.token, order.order_id)).status).toBe('cancelled');
    const again = await call('/web/order/cancel', { order_id: order.order_id }, owner.token);
    expect(again.json()).toMatchObject({ code: 409, data: { reason: 'order_not_payable' } });
  });

  it('limits how many orders a user opens in an hour', async () => {
    const { token } = await signedInUser(t.database);
    for (let i = 0; i < 30; i++) await buy(token);
    const reply = await call('/web/order/create', { period: 'month', connections: 1 }, token);
    expect(reply.json()).toMatchObject({ code: 429, data: { reason: 'too_many_requests' } });
    expect(reply.json().data.retry_after).toBeGreaterThan(0);
  });

  describe('the sandbox provider', () => {
    it('serves a checkout page marked as a test, in the buyer’s language', async () => {
      const { token } = await signedInUser(t.database);
      const order = await t.app.inject({
        method: 'POST',
        url: '/web/order/create',
        payload: { period: 'month', connections: 2, pay_method: 'alipay', l: 'zh-cn' },
        headers: { authorization: token },
      });
      const checkoutUrl = order.json().data.checkout_url as string;
      expect(checkoutUrl).toMatch(/^\/pay\/sandbox\/[\w-]{32}\?l=zh-cn$/);
      const page = await t.app.inject({ method: 'GET', url: checkoutUrl });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toMatch(/text\/html/);
      expect(page.body).toContain('测试模式：此页面仅模拟付款，不会扣款');
      expect(page.body).toContain('¥50.00');
      expect(page.body).toContain(order.json().data.order_id);
      const missing = await t.app.inject({ method: 'GET', url: '/pay/sandbox/nope' });
      expect(missing.statusCode).toBe(404);
    });

    it('simulates the method the buyer chose: its name, its mark and its Pay button', async () => {
      const { token } = await signedInUser(t.database);
      const cases = [
        ['zh-cn', 'alipay', '支付宝', '#1677FF', '使用支付宝付款（测试）', '取消'],
        ['zh-cn', 'wechat_pay', '微信支付', '#07C160', '使用微信支付（测试）', '取消'],
        ['zh-cn', 'card', '银行卡', '#475569', '使用银行卡付款（测试）', '取消'],
        ['us-en', 'alipay', 'Alipay', '#1677FF', 'Pay with Alipay (test)', 'Cancel'],
        ['us-en', 'wechat_pay', 'WeChat Pay', '#07C160', 'Pay with WeChat Pay (test)', 'Cancel'],
        ['us-en', 'card', 'Card', '#475569', 'Pay by card (test)', 'Cancel'],
        ['tw-cn', 'alipay', '支付寶', '#1677FF', '使用支付寶付款（測試）', '取消'],
        ['tw-cn', 'wechat_pay', '微信支付', '#07C160', '使用微信支付（測試）', '取消'],
        ['tw-cn', 'card', '信用卡', '#475569', '使用信用卡付款（測試）', '取消'],
      ] as const;
      for (const [language, method, name, colour, pay, cancel] of cases) {
        const created = await call(
          '/web/order/create',
          { period: 'month', connections: 1, pay_method: method, l: language },
          token,
        );
        const { body } = await t.app.inject({ method: 'GET', url: created.json().data.checkout_url });
        const label = `${language} ${method}`;
        expect(body, label).toMatch(
          new RegExp(
            `<span class="method"><svg class="mark"[^>]*aria-hidden="true"[^>]*>.*?fill="${colour}".*?</svg>${name}</span>`,
          ),
        );
        expect(body, label).toContain(`<button type="submit">${pay}</button>`);
        expect(body, label).toMatch(
          new RegExp(`<a class="button" href="/buy\\?order_id=\\d+">${cancel}</a>`),
        );
        // The page loads nothing from elsewhere: the mark is drawn inline, under the site's CSP.
        expect(body, label).not.toMatch(/<img|src=|url\(/);
      }
    });

    it('credits a month once: the order is paid, the expiry grows by 31 days, the type is card', async () => {
      const { user, token } = await signedInUser(t.database);
      const before = Math.floor(Date.now() / 1000);
      const order = await buy(token);
      const paid = await payInSandbox(order.checkout_url);
      expect(paid.statusCode).toBe(303);
      expect(paid.headers.location).toBe(`/buy?order_id=${order.order_id}`);
      const info = await userInfo(token);
      expect(info.expire_user - before).toBeGreaterThanOrEqual(31 * DAY);
      expect(info.expire_user - Math.floor(Date.now() / 1000)).toBeLessThanOrEqual(31 * DAY);
      expect(info).toMatchObject({ subscribe_type: 2, connections: 1 });
      expect(await query(token, order.order_id)).toMatchObject({ status: 'paid', checkout_url: null });

      await payInSandbox(order.checkout_url);
      expect((await userInfo(token)).expire_user).toBe(info.expire_user);
      const ledger = await t.database.db.select().from(expiryLedger).where(eq(expiryLedger.userId, user.id));
      expect(ledger).toMatchObject([{ reason: 'purchase', ref: order.order_id, connections: 1 }]);
      expect(
        await t.database.db.select().from(payments).where(eq(payments.orderId, order.order_id)),
      ).toHaveLength(1);

      const page = await t.app.inject({ method: 'GET', url: order.checkout_url });
      expect(page.body).toContain('This order is paid.');
      expect(page.body).not.toContain('<button');
    });

    it('refuses to pay an order that a newer order replaced or the user cancelled', async () => {
      const { token } = await signedInUser(t.database);
      const replaced = await buy(token);
      const newer = await buy(token, 'year');
      expect((await call('/web/order/cancel', { order_id: newer.order_id }, token)).json().code).toBe(200);
      for (const closed of [replaced, newer]) {
        const page = await t.app.inject({ method: 'GET', url: closed.checkout_url });
        expect(page.body).toContain('This order can no longer be paid.');
        expect(page.body).not.toContain('<button');
        const paid = await payInSandbox(closed.checkout_url);
        expect(paid.headers.location).toBe(`/buy?order_id=${closed.order_id}`);
        expect((await query(token, closed.order_id)).status).toBe('cancelled');
        expect(
          await t.database.db.select().from(payments).where(eq(payments.orderId, closed.order_id)),
        ).toEqual([]);
      }
      expect(await userInfo(token)).toMatchObject({ expire_user: 0, subscribe_type: 1 });
      // Nothing is left for the orders job to close: the sandbox's page reads the order itself.
      const [row] = await t.database.db.select().from(orders).where(eq(orders.id, replaced.order_id));
      expect(row?.checkoutCloseDueAt).toBeNull();
    });

    it('extends from the current expiry when the same size is bought again', async () => {
      const { token } = await signedInUser(t.database);
      await payInSandbox((await buy(token, 'month', 2)).checkout_url);
      const first = await userInfo(token);
      await payInSandbox((await buy(token, 'year', 2)).checkout_url);
      expect((await userInfo(token)).expire_user - first.expire_user).toBe(366 * DAY);
    });
  });

  describe('fulfilment', () => {
    const NOW = new Date(Math.floor(Date.now() / 1000) * 1000);
    const now = toUnixSeconds(NOW);

    async function orderFor(days: number, connections: number, state: Partial<typeof users.$inferInsert>) {
      const { user, token } = await signedInUser(t.database);
      if (Object.keys(state).length > 0)
        await t.database.db.update(users).set(state).where(eq(users.id, user.id));
      const period = { 31: 'month', 183: 'half_year', 366: 'year' }[days] ?? 'month';
      const order = await buy(token, period, connections);
      return { user, token, order };
    }

    const notice = (order: { order_id: string; amount: number }, paymentId = `pay_${order.order_id}`) => ({
      provider: 'sandbox',
      orderId: order.order_id,
      paymentId,
      amount: order.amount,
      currency: 'CNY',
    });

    it('upgrades at once, converting the remaining time at the new size', async () => {
      const { token, order } = await orderFor(31, 3, {
        expireAt: new Date((now + 30 * DAY) * 1000),
        connections: 1,
      });
      expect(await fulfilPayment(fulfilDeps(t), notice(order), NOW)).toBe('credited');
      expect(await userInfo(token)).toMatchObject({
        expire_user: now + 10 * DAY + 31 * DAY,
        connections: 3,
        pending_connections: null,
        subscribe_type: 2,
      });
    });

    it('queues a downgrade to the current expiry and adds the bought days after it', async () => {
      const { user, token, order } = await orderFor(183, 2, {
        expireAt: new Date((now + 20 * DAY) * 1000),
        connections: 5,
      });
      await fulfilPayment(fulfilDeps(t), notice(order), NOW);
      expect(await userInfo(token)).toMatchObject({
        expire_user: now + 20 * DAY + 183 * DAY,
        connections: 5,
        pending_connections: 2,
        pending_from: now + 20 * DAY,
      });
      const [ledger] = await t.database.db
        .select()
        .from(expiryLedger)
        .where(eq(expiryLedger.userId, user.id));
      expect(ledger).toMatchObject({ reason: 'purchase', seconds: 183 * DAY, connections: 5 });
    });

    it('honours a payment for an order that expired or was cancelled', async () => {
      const expired = await orderFor(31, 1, {});
      await t.database.db
        .update(orders)
        .set({ latestPayAt: new Date(NOW.getTime() - 1000) })
        .where(eq(orders.id, expired.order.order_id));
      expect((await query(expired.token, expired.order.order_id)).status).toBe('expired');
      expect(await fulfilPayment(fulfilDeps(t), notice(expired.order), NOW)).toBe('credited');
      expect((await query(expired.token, expired.order.order_id)).status).toBe('paid');
      expect((await userInfo(expired.token)).expire_user).toBe(now + 31 * DAY);

      const cancelled = await orderFor(31, 1, {});
      await call('/web/order/cancel', { order_id: cancelled.order.order_id }, cancelled.token);
      expect(await fulfilPayment(fulfilDeps(t), notice(cancelled.order), NOW)).toBe('credited');
      expect((await userInfo(cancelled.token)).expire_user).toBe(now + 31 * DAY);
    });

    it('records a payment that does not match the order and credits nothing', async () => {
      const { token, order } = await orderFor(31, 1, {});
      const short = { ...notice(order), amount: order.amount - 1 };
      expect(await fulfilPayment(fulfilDeps(t), short, NOW)).toBe('amount_mismatch');
      const wrongCurrency = { ...notice(order, 'pay_usd'), currency: 'USD' };
      expect(await fulfilPayment(fulfilDeps(t), wrongCurrency, NOW)).toBe('amount_mismatch');
      expect(await userInfo(token)).toMatchObject({ expire_user: 0, subscribe_type: 1 });
      expect((await query(token, order.order_id)).status).toBe('unpaid');
      const recorded = await t.database.db
        .select()
        .from(payments)
        .where(eq(payments.orderId, order.order_id));
      expect(recorded.map((row) => row.outcome)).toEqual(['amount_mismatch', 'amount_mismatch']);
    });

    it('credits each payment id and each event once; a second payment of a paid order is kept for refund', async () => {
      const { token, order } = await orderFor(31, 1, {});
      const event = { id: 'evt_1', type: 'test' };
      expect(await fulfilPayment(fulfilDeps(t), { ...notice(order), event }, NOW)).toBe('credited');
      expect(await fulfilPayment(fulfilDeps(t), { ...notice(order), event }, NOW)).toBe('duplicate');
      expect(await fulfilPayment(fulfilDeps(t), notice(order), NOW)).toBe('duplicate');
      expect(await fulfilPayment(fulfilDeps(t), notice(order, 'pay_second'), NOW)).toBe('already_paid');
      expect((await userInfo(token)).expire_user).toBe(now + 31 * DAY);
      expect(
        await fulfilPayment(fulfilDeps(t), { ...notice(order), orderId: 'nope', paymentId: 'x' }, NOW),
      ).toBe('unknown_order');
    });

    it.runIf(testDatabaseKind === 'postgres')(
      'credits once when the same payment arrives 20 times at once',
      async () => {
        const { token, order } = await orderFor(31, 1, {});
        const outcomes = await Promise.all(
          Array.from({ length: 20 }, () => fulfilPayment(fulfilDeps(t), notice(order), NOW)),
        );
        expect(outcomes.filter((outcome) => outcome === 'credited')).toHaveLength(1);
        expect((await userInfo(token)).expire_user).toBe(now + 31 * DAY);
      },
    );

    it.runIf(testDatabaseKind === 'postgres')(
      'leaves one open order when several are created at once',
      async () => {
        const { user, token } = await signedInUser(t.database);
        await Promise.all(Array.from({ length: 8 }, () => buy(token)));
        const open = await t.database.db
          .select()
          .from(orders)
          .where(and(eq(orders.userId, user.id), eq(orders.status, 'unpaid')));
        expect(open).toHaveLength(1);
      },
    );
  });

  describe('the orders job', () => {
    it('expires unpaid orders past their deadline and applies downgrades that came due', async () => {
      const { user, token } = await signedInUser(t.database);
      const order = await buy(token);
      const later = new Date(Date.now() + 31 * 60_000);
      await t.database.db
        .update(users)
        .set({
          expireAt: new Date(later.getTime() + DAY * 1000),
          connections: 5,
          pendingConnections: 2,
          pendingFrom: new Date(later.getTime() - 1000),
        })
        .where(eq(users.id, user.id));
      const result = await runOrdersJob(
        { ...fulfilDeps(t), provider: createSandboxProvider(), log: t.app.log },
        later,
      );
      expect(result.expired).toBeGreaterThanOrEqual(1);
      expect(result.downgraded).toBeGreaterThanOrEqual(1);
      const [row] = await t.database.db.select().from(orders).where(eq(orders.id, order.order_id));
      expect(row?.status).toBe('expired');
      const [account] = await t.database.db.select().from(users).where(eq(users.id, user.id));
      expect(account).toMatchObject({ connections: 2, pendingConnections: null, pendingFrom: null });
      // The downgrade has its ledger row, like every change of an account's access, and only one.
      const downgrades = await t.database.db
        .select()
        .from(expiryLedger)
        .where(and(eq(expiryLedger.userId, user.id), eq(expiryLedger.reason, 'downgrade')));
      expect(downgrades).toMatchObject([{ connections: 2, seconds: 0 }]);
      await runOrdersJob({ ...fulfilDeps(t), provider: createSandboxProvider(), log: t.app.log }, later);
      const again = await t.database.db
        .select()
        .from(expiryLedger)
        .where(and(eq(expiryLedger.userId, user.id), eq(expiryLedger.reason, 'downgrade')));
      expect(again).toHaveLength(1);
      const health = await t.app.inject({ method: 'GET', url: '/healthz' });
      expect(Date.parse(health.json().jobs.orders)).toBeGreaterThanOrEqual(later.getTime());
    });
  });
});
