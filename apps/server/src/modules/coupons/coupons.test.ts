import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { auditLog, orders, payments } from '../../db/schema/index.ts';
import { type SignedInStaff, signedInStaff } from '../../testing/staff.ts';
import { newClientAddress, signedInUser, useTestApp, useTwoTestApps } from '../../testing/test-app.ts';
import { testDatabaseKind } from '../../testing/test-database.ts';
import { createSandboxProvider } from '../payments/sandbox.ts';
import { fulfilPayment } from '../orders/fulfilment.ts';
import { runOrdersJob } from '../orders/orders-job.ts';
import { setUnitPrice } from '../orders/plans-repository.ts';
import { fulfilDeps } from '../../testing/payments.ts';

let codeCount = 0;
/** A code of its own per test: a list shared by the file's tests must not mix them up. */
const newCode = (prefix = 'T') => `${prefix}${Date.now().toString(36)}${(codeCount += 1)}`.toUpperCase();

const buyerCall =
  (app: () => FastifyInstance) =>
  (url: string, payload: object, token: string, lang = 'en') =>
    app().inject({
      method: 'POST',
      url,
      payload,
      headers: { authorization: token, 'accept-language': lang },
      remoteAddress: newClientAddress(),
    });

describe('coupons', () => {
  const t = useTestApp();
  let owner: SignedInStaff;
  const call = buyerCall(() => t.app);

  beforeAll(async () => {
    owner = await signedInStaff(t.app, t.database, 'owner');
  });
  beforeEach(async () => {
    await setUnitPrice(t.database.db, 'month', 2500);
    await setUnitPrice(t.database.db, 'year', 25_800);
  });

  async function addCoupon(terms: Record<string, unknown>): Promise<{ id: string; code: string }> {
    const reply = await owner.call('POST', '/coupons', {
      code: newCode(),
      kind: 'percent',
      value: 10,
      ...terms,
    });
    expect(reply.json().code, reply.body).toBe(200);
    return reply.json().data;
  }

  const check = (token: string, code: string, period = 'month', connections = 1, lang = 'en') =>
    call('/web/coupon/check', { code, period, connections }, token, lang);

  const order = (token: string, coupon_code?: string, extra: object = {}) =>
    call(
      '/web/order/create',
      { period: 'month', connections: 1, pay_method: 'card', coupon_code, ...extra },
      token,
    );

  async function paidOrder(token: string, couponCode?: string) {
    const created = (await order(token, couponCode)).json().data as { order_id: string; amount: number };
    await fulfilPayment(
      fulfilDeps(t),
      {
        provider: 'sandbox',
        orderId: created.order_id,
        paymentId: `pay_${created.order_id}`,
        amount: created.amount,
        currency: 'CNY',
      },
      new Date(),
    );
    return created;
  }

  describe('pricing', () => {
    it('previews the price before and after, in any case of the code', async () => {
      const { token } = await signedInUser(t.database);
      const { code } = await addCoupon({ kind: 'percent', value: 15 });
      const reply = await check(token, `  ${code.toLowerCase()} `, 'year', 1);
      // 15 % of 25 800 = 3 870.
      expect(reply.json()).toMatchObject({
        code: 200,
        data: { code, price: 25_800, discount: 3870, discounted: 21_930 },
      });
    });

    it('prices the order on the server, snapshots the coupon, and ignores a price from the client', async () => {
      const { token } = await signedInUser(t.database);
      const { code, id } = await addCoupon({ kind: 'fixed', value: 501 });
      const reply = await order(token, code.toLowerCase(), { amount: 1, discount: 2500, price: 0 });
      expect(reply.json()).toMatchObject({
        code: 200,
        data: { amount: 1999, discount: 501, fee: 0, paid: false },
      });
      const [row] = await t.database.db
        .select()
        .from(orders)
        .where(eq(orders.id, reply.json().data.order_id));
      expect(row).toMatchObject({
        amount: 1999,
        discount: 501,
        couponId: id,
        couponCode: code,
        unitPrice: 2500,
      });
      const list = (await call('/web/order/list', { page: 1, size: 5 }, token)).json().data.list;
      expect(list[0]).toMatchObject({ amount: 1999, discount: 501, coupon_code: code });
      const staffList = (await owner.call('GET', `/orders?user_id=${row?.userId}`)).json().data.items;
      expect(staffList).toMatchObject([{ amount: 1999, discount: 501, coupon_code: code }]);
    });

    it('never takes a price below zero, and a free order is paid at once without a gateway', async () => {
      const { token } = await signedInUser(t.database);
      const { code } = await addCoupon({ kind: 'fixed', value: 999_999 });
      expect((await check(token, code)).json().data).toMatchObject({
        price: 2500,
        discount: 2500,
        discounted: 0,
      });
      const reply = await order(token, code);
      expect(reply.json()).toMatchObject({
        code: 200,
        data: { amount: 0, discount: 2500, fee: 0, checkout_url: '', paid: true },
      });
      const orderId = reply.json().data.order_id as string;
      const [row] = await t.database.db.select().from(orders).where(eq(orders.id, orderId));
      expect(row).toMatchObject({ status: 'paid', provider: 'free', providerRef: null, checkoutUrl: null });
      const credited = await t.database.db.select().from(payments).where(eq(payments.orderId, orderId));
      expect(credited).toMatchObject([{ provider: 'free', amount: 0, outcome: 'credited' }]);
      const info = (await call('/web/user/info', {}, token)).json().data;
      expect(info.expire_user - Math.floor(Date.now() / 1000)).toBeGreaterThan(30 * 86_400);
    });

    it('makes a 100 % coupon a free order too', async () => {
      const { token } = await signedInUser(t.database);
      const { code } = await addCoupon({ kind: 'percent', value: 100 });
      expect((await order(token, code)).json().data).toMatchObject({ amount: 0, paid: true });
    });
  });

  describe('refusals', () => {
    const DAY_MS = 86_400_000;

    async function refusedWith(
      token: string,
      code: string,
      reason: string,
      period = 'month',
      connections = 1,
    ) {
      const preview = await check(token, code, period, connections);
      expect(preview.json(), preview.body).toMatchObject({
        code: 400,
        data: { reason, field: 'coupon_code' },
      });
      const created = await call(
        '/web/order/create',
        { period, connections, pay_method: 'card', coupon_code: code },
        token,
      );
      expect(created.json()).toMatchObject({ code: 400, data: { reason } });
    }

    it('refuses an unknown code, in the buyer’s language', async () => {
      const { token } = await signedInUser(t.database);
      await refusedWith(token, 'NO-SUCH-CODE', 'coupon_unknown');
      expect((await check(token, 'NO-SUCH-CODE', 'month', 1, 'zh-CN')).json().msg).toBe(
        '优惠码不存在，请检查是否输入正确',
      );
      expect((await check(token, 'NO-SUCH-CODE', 'month', 1, 'zh-TW')).json().msg).toBe(
        '優惠碼不存在，請檢查是否輸入正確',
      );
    });

    it('refuses an expired or ended coupon, and one paused or not started', async () => {
      const { token } = await signedInUser(t.database);
      const past = await addCoupon({ valid_to: new Date(Date.now() - DAY_MS).toISOString() });
      await refusedWith(token, past.code, 'coupon_expired');
      const ended = await addCoupon({});
      await owner.call('POST', `/coupons/${ended.id}/status`, { action: 'end' });
      await refusedWith(token, ended.code, 'coupon_expired');
      const paused = await addCoupon({});
      await owner.call('POST', `/coupons/${paused.id}/status`, { action: 'pause' });
      await refusedWith(token, paused.code, 'coupon_not_active');
      const later = await addCoupon({ valid_from: new Date(Date.now() + DAY_MS).toISOString() });
      await refusedWith(token, later.code, 'coupon_not_active');
    });

    it('refuses a coupon for another plan, other connections, or under its minimum', async () => {
      const { token } = await signedInUser(t.database);
      const yearly = await addCoupon({ periods: ['year'], connections: [1, 2] });
      await refusedWith(token, yearly.code, 'coupon_not_applicable', 'month', 1);
      await refusedWith(token, yearly.code, 'coupon_not_applicable', 'year', 3);
      expect((await check(token, yearly.code, 'year', 2)).json().code).toBe(200);
      const minimum = await addCoupon({ min_amount: 5000 });
      await refusedWith(token, minimum.code, 'coupon_below_minimum', 'month', 1);
      expect((await check(token, minimum.code, 'month', 2)).json().code).toBe(200);
    });

    it('refuses a first-order coupon to an account that has bought, and a second use past the account’s cap', async () => {
      const { token } = await signedInUser(t.database);
      const first = await addCoupon({ first_order_only: true });
      const once = await addCoupon({ max_uses_per_user: 1 });
      expect((await check(token, first.code)).json().code).toBe(200);
      await paidOrder(token, once.code);
      await refusedWith(token, first.code, 'coupon_first_order_only');
      await refusedWith(token, once.code, 'coupon_already_used');
    });

    it('refuses a coupon whose every use is taken', async () => {
      const { code } = await addCoupon({ max_uses: 1 });
      await paidOrder((await signedInUser(t.database)).token, code);
      await refusedWith((await signedInUser(t.database)).token, code, 'coupon_used_up');
    });

    it('keeps the buyer’s open order when a coupon is refused', async () => {
      const { token } = await signedInUser(t.database);
      const open = (await order(token)).json().data.order_id as string;
      expect((await order(token, 'NO-SUCH-CODE')).json().code).toBe(400);
      const [row] = await t.database.db.select().from(orders).where(eq(orders.id, open));
      expect(row?.status).toBe('unpaid');
    });

    it('limits previews per account, against guessing', async () => {
      const { token } = await signedInUser(t.database);
      const replies = [];
      for (let i = 0; i < 21; i += 1) replies.push((await check(token, `GUESS${i}`)).json().code);
      expect(replies.slice(0, 20).every((code) => code === 400)).toBe(true);
      expect(replies[20]).toBe(429);
    });
  });

  describe('uses given back', () => {
    it('gives the use back when the order is cancelled or replaced', async () => {
      const { code } = await addCoupon({ max_uses: 1 });
      const a = await signedInUser(t.database);
      const b = await signedInUser(t.database);
      const held = (await order(a.token, code)).json().data.order_id as string;
      expect((await check(b.token, code)).json().data.reason).toBe('coupon_used_up');
      await call('/web/order/cancel', { order_id: held }, a.token);
      expect((await check(b.token, code)).json().code).toBe(200);
      // A's new order holds it again; A's next order, without it, replaces that one and gives it back.
      expect((await order(a.token, code)).json().code).toBe(200);
      expect((await check(b.token, code)).json().data.reason).toBe('coupon_used_up');
      expect((await order(a.token)).json().code).toBe(200);
      expect((await order(b.token, code)).json().code).toBe(200);
    });

    it('gives the use back when the order expires, and the orders job closes it', async () => {
      const { code } = await addCoupon({ max_uses: 1 });
      const a = await signedInUser(t.database);
      const b = await signedInUser(t.database);
      const held = (await order(a.token, code)).json().data.order_id as string;
      expect((await order(b.token, code)).json().data.reason).toBe('coupon_used_up');
      const past = new Date(Date.now() - 1000);
      await t.database.db.update(orders).set({ latestPayAt: past }).where(eq(orders.id, held));
      await runOrdersJob({ ...fulfilDeps(t), provider: createSandboxProvider(), log: t.app.log }, new Date());
      const [row] = await t.database.db.select().from(orders).where(eq(orders.id, held));
      expect(row?.status).toBe('expired');
      expect((await order(b.token, code)).json().code).toBe(200);
    });
  });

  describe('the back office', () => {
    it('creates a typed code in capitals, refuses it again in any case, and generates one', async () => {
      const code = newCode('Typed');
      const made = await owner.call('POST', '/coupons', {
        code: code.toLowerCase(),
        kind: 'fixed',
        value: 500,
      });
      expect(made.json().data).toMatchObject({
        code,
        kind: 'fixed',
        value: 500,
        status: 'active',
        uses_held: 0,
      });
      const again = await owner.call('POST', '/coupons', {
        code: code.toLowerCase(),
        kind: 'fixed',
        value: 1,
      });
      expect(again.json()).toMatchObject({ code: 409, data: { reason: 'coupon_code_taken' } });
      const generated = await owner.call('POST', '/coupons', { kind: 'percent', value: 20 });
      expect(generated.json().data.code).toMatch(/^[A-HJ-KM-NP-Z2-9]{10}$/);
      const over = await owner.call('POST', '/coupons', { kind: 'percent', value: 101 });
      expect(over.json().code).toBe(400);
    });

    it('edits, pauses, resumes and ends a coupon, each change audited', async () => {
      const { id } = await addCoupon({ kind: 'percent', value: 10 });
      const edited = await owner.call('PATCH', `/coupons/${id}`, {
        value: 25,
        periods: ['year'],
        max_uses: 3,
      });
      expect(edited.json().data).toMatchObject({ value: 25, periods: ['year'], max_uses: 3 });
      expect((await owner.call('PATCH', `/coupons/${id}`, { value: 120 })).json().code).toBe(400);
      expect(
        (await owner.call('POST', `/coupons/${id}/status`, { action: 'pause' })).json().data.status,
      ).toBe('paused');
      expect(
        (await owner.call('POST', `/coupons/${id}/status`, { action: 'resume' })).json().data.status,
      ).toBe('active');
      expect((await owner.call('POST', `/coupons/${id}/status`, { action: 'end' })).json().data.status).toBe(
        'ended',
      );
      const refused = await owner.call('POST', `/coupons/${id}/status`, { action: 'resume' });
      expect(refused.json()).toMatchObject({ code: 409, data: { reason: 'coupon_ended' } });
      const audit = await t.database.db
        .select()
        .from(auditLog)
        .where(eq(auditLog.targetId, id))
        .orderBy(auditLog.at);
      expect(audit.map((row) => row.action)).toEqual([
        'coupon.create',
        'coupon.update',
        'coupon.pause',
        'coupon.resume',
        'coupon.end',
      ]);
      expect(audit[1]).toMatchObject({ before: { value: 10 }, after: { value: 25 }, staffId: owner.id });
    });

    it('lists coupons with their uses and what they took off paid orders, filtered and sorted', async () => {
      const { code, id } = await addCoupon({ kind: 'fixed', value: 300 });
      await paidOrder((await signedInUser(t.database)).token, code);
      await paidOrder((await signedInUser(t.database)).token, code);
      await order((await signedInUser(t.database)).token, code);
      const list = await owner.call('GET', `/coupons?code=${code.slice(0, -1).toLowerCase()}`);
      const item = list.json().data.items.find((each: { id: string }) => each.id === id);
      expect(item).toMatchObject({ uses_held: 1, uses_paid: 2, discount_total: 600 });
      const byDiscount = (await owner.call('GET', '/coupons?sort=discount_total&order=desc')).json().data
        .items;
      const totals = byDiscount.map((each: { discount_total: number }) => each.discount_total);
      expect(totals).toEqual([...totals].sort((x: number, y: number) => y - x));
      const paused = (await owner.call('GET', '/coupons?status=paused')).json().data.items;
      expect(paused.every((each: { status: string }) => each.status === 'paused')).toBe(true);
    });

    it('lets finance and admins manage coupons, and refuses support', async () => {
      for (const role of ['admin', 'finance'] as const) {
        const member = await signedInStaff(t.app, t.database, role);
        expect((await member.call('POST', '/coupons', { kind: 'percent', value: 5 })).json().code).toBe(200);
      }
      const support = await signedInStaff(t.app, t.database, 'support');
      expect((await support.call('GET', '/coupons')).json()).toMatchObject({
        code: 403,
        data: { reason: 'permission_denied' },
      });
      expect((await support.call('POST', '/coupons', { kind: 'percent', value: 5 })).json().code).toBe(403);
    });
  });
});

describe.runIf(testDatabaseKind === 'postgres')('a coupon’s caps on two instances', () => {
  const two = useTwoTestApps();

  it('gives the last use to exactly one of 50 buyers at once', async () => {
    const owner = await signedInStaff(two.first.app, two.first.database, 'owner');
    const code = newCode('LAST');
    await owner.call('POST', '/coupons', { code, kind: 'percent', value: 50, max_uses: 3 });
    // Two of its three uses already held by open orders.
    const web = (app: FastifyInstance) => buyerCall(() => app);
    for (let held = 0; held < 2; held += 1) {
      const { token } = await signedInUser(two.first.database);
      const reply = await web(two.first.app)(
        '/web/order/create',
        { period: 'month', connections: 1, coupon_code: code },
        token,
      );
      expect(reply.json().code).toBe(200);
    }
    const buyers = await Promise.all(Array.from({ length: 50 }, () => signedInUser(two.first.database)));
    const replies = await Promise.all(
      buyers.map(({ token }, i) =>
        web(i % 2 === 0 ? two.first.app : two.second.app)(
          '/web/order/create',
          { period: 'month', connections: 1, pay_method: 'card', coupon_code: code },
          token,
        ),
      ),
    );
    const reasons = replies.map((reply) => (reply.json().code === 200 ? 'ok' : reply.json().data.reason));
    expect(reasons.filter((reason) => reason === 'ok')).toHaveLength(1);
    expect(reasons.filter((reason) => reason === 'coupon_used_up')).toHaveLength(49);
    const withCoupon = await two.first.database.db.select().from(orders).where(eq(orders.couponCode, code));
    expect(withCoupon).toHaveLength(3);
  });

  it('holds an account’s cap when one buyer sends the same coupon from both instances at once', async () => {
    const owner = await signedInStaff(two.first.app, two.first.database, 'owner');
    const code = newCode('EACH');
    await owner.call('POST', '/coupons', { code, kind: 'fixed', value: 100, max_uses_per_user: 1 });
    const { token } = await signedInUser(two.first.database);
    const web = (app: FastifyInstance) => buyerCall(() => app);
    const replies = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        web(i % 2 === 0 ? two.first.app : two.second.app)(
          '/web/order/create',
          { period: 'month', connections: 1, pay_method: 'card', coupon_code: code },
          token,
        ),
      ),
    );
    // Each order replaces the one before; at most one holds the use at any time.
    expect(replies.every((reply) => [200, 400].includes(reply.json().code))).toBe(true);
    const open = await two.first.database.db.select().from(orders).where(eq(orders.couponCode, code));
    expect(open.filter((row) => row.status === 'unpaid')).toHaveLength(1);
  });
});
