import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { dashboardHours, orders, payments } from '../../db/schema/index.ts';
import { fulfilPayment } from '../orders/fulfilment.ts';
import { type SignedInStaff, signedInStaff } from '../../testing/staff.ts';
import { newClientAddress, signedInUser, useTestApp, webCaller } from '../../testing/test-app.ts';
import { dashboard, rollUpDashboard, windowsAt } from './service.ts';
import { fulfilDeps } from '../../testing/payments.ts';

describe('the dashboard', () => {
  const t = useTestApp();
  let viewer: SignedInStaff;
  const web = webCaller(
    () => t.app,
    () => newClientAddress(),
  );

  beforeAll(async () => {
    viewer = await signedInStaff(t.app, t.database, 'viewer');
  });

  async function buy(token: string, amountOff = 0) {
    const order = (
      await web('/web/order/create', { period: 'month', connections: 2, pay_method: 'alipay' }, token)
    ).json().data;
    const notice = {
      provider: 'sandbox',
      orderId: order.order_id,
      paymentId: `pay_${order.order_id}`,
      amount: order.amount - amountOff,
      currency: 'CNY',
    };
    return { order, outcome: await fulfilPayment(fulfilDeps(t), notice, new Date()) };
  }

  it('counts revenue, paid orders, new accounts, trials and their conversion, subscribers and attention', async () => {
    const converted = await signedInUser(t.database);
    expect((await web('/web/invite/claim', {}, converted.token)).statusCode).toBe(200);
    const first = await buy(converted.token);
    expect(first.outcome).toBe('credited');
    const trialOnly = await signedInUser(t.database);
    await web('/web/invite/claim', {}, trialOnly.token);
    const short = await signedInUser(t.database);
    expect((await buy(short.token, 100)).outcome).toBe('amount_mismatch');

    // The subscribers are counted by the dashboard job; everything else is counted live until then.
    const live = (await viewer.call('GET', '/dashboard?tz_offset=-480')).json().data;
    expect(live.active_subscribers).toEqual([]);
    await rollUpDashboard(t.database.db, new Date());
    const data = (await viewer.call('GET', '/dashboard?tz_offset=-480')).json().data;
    expect({
      ...data,
      generated_at: 0,
      active_subscribers: [],
      renewals_due_7d: 0,
      subscribers_counted_at: 0,
    }).toEqual({
      ...live,
      generated_at: 0,
      subscribers_counted_at: 0,
    });
    expect(data.revenue).toEqual(
      ['today', '7d', '30d'].map((window) => ({
        window,
        provider: 'sandbox',
        currency: 'CNY',
        amount: first.order.amount,
        payments: 1,
      })),
    );
    expect(data.paid_orders).toEqual({ today: 1, '7d': 1, '30d': 1 });
    // The staff member's set-up made no customer account: three accounts, all today.
    expect(data.new_accounts).toEqual({ today: 3, '7d': 3, '30d': 3 });
    expect(data.trials_claimed).toEqual({ today: 2, '7d': 2, '30d': 2 });
    expect(data.trial_conversion).toEqual({ trials: 2, converted: 1 });
    expect(data.active_subscribers).toEqual(
      expect.arrayContaining([
        { subscribe_type: 2, accounts: 1 },
        { subscribe_type: 1, accounts: 1 },
      ]),
    );
    // The trial-only account's access ends within a day.
    expect(data.renewals_due_7d).toBe(1);
    expect(data.attention).toBe(1);

    // Written hours and the live rest add up the same: the whole dashboard once this hour is written
    // (two hours on), and with the payment moved three days back, out of "today" but in the weeks.
    // Seen by a viewer whose clock reads 6 a.m. now, so that two hours on is still their today.
    const later = new Date(Date.now() + 2 * 3_600_000);
    const sixInTheMorning = (((new Date().getUTCHours() + 6) % 24) - 12) * 60;
    await rollUpDashboard(t.database.db, later);
    expect((await dashboard(t.database.db, later, sixInTheMorning)).paid_orders).toEqual(data.paid_orders);
    const threeDaysAgo = sql`now() - interval '3 days'`;
    await t.database.db
      .update(payments)
      .set({ createdAt: threeDaysAgo })
      .where(eq(payments.orderId, first.order.order_id));
    await t.database.db
      .update(orders)
      .set({ paidAt: threeDaysAgo })
      .where(eq(orders.id, first.order.order_id));
    await t.database.db.delete(dashboardHours);
    await rollUpDashboard(t.database.db, new Date());
    const moved = (await viewer.call('GET', '/dashboard?tz_offset=-480')).json().data;
    expect(moved.paid_orders).toEqual({ today: 0, '7d': 1, '30d': 1 });
    expect(moved.revenue.map((row: { window: string }) => row.window)).toEqual(['7d', '30d']);
  });

  it('starts "today" at the viewer’s midnight', () => {
    const now = new Date('2026-11-24T17:30:00Z');
    // China (UTC+8, offset -480): already the 25th there, since 16:00 UTC.
    expect(windowsAt(now, -480).today.toISOString()).toBe('2026-11-24T16:00:00.000Z');
    expect(windowsAt(now, 0).today.toISOString()).toBe('2026-11-24T00:00:00.000Z');
    // New York in winter (UTC-5, offset 300).
    expect(windowsAt(now, 300).today.toISOString()).toBe('2026-11-24T05:00:00.000Z');
    // The weeks count from the start of the current hour.
    expect(windowsAt(now, 0)['30d'].toISOString()).toBe('2026-10-25T17:00:00.000Z');
  });

  it('draws the last days, today last, the same before and after the job writes their hours', async () => {
    const buyer = await signedInUser(t.database);
    const { order } = await buy(buyer.token);
    const daily = async () =>
      (await viewer.call('GET', '/dashboard/daily?tz_offset=-480&days=7')).json().data;
    const before = await daily();
    expect(before).toHaveLength(7);
    const today = new Date(Date.now() + 480 * 60_000).toISOString().slice(0, 10);
    expect(before.at(-1)).toMatchObject({ day: today });
    expect(before.at(-1).paid_orders).toBeGreaterThanOrEqual(1);
    expect(
      before.at(-1).revenue.find((money: { currency: string }) => money.currency === 'CNY').amount,
    ).toBeGreaterThanOrEqual(order.amount);
    expect(before[0].day < before.at(-1).day).toBe(true);
    await rollUpDashboard(t.database.db, new Date());
    expect(await daily()).toEqual(before);
    expect((await viewer.call('GET', '/dashboard/daily?days=400')).json()).toMatchObject({ code: 400 });
  });
});
