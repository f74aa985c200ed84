import type { Order, PlanList } from '@skyway/shared/plans';
import { afterEach, beforeEach, vi } from 'vitest';
import { type Rendered, renderWithProviders } from '../../../test/render.tsx';
import { DESKTOP_WIDTH, setViewportWidth } from '../../../test/viewport.ts';
import { BuyPage } from '../components/buy-page.tsx';

export const PLAN_LIST: PlanList = {
  currency: 'CNY',
  max_connections: 10,
  plans: [
    { period: 'month', months: 1, days: 31, unit_price: 2500 },
    { period: 'half_year', months: 6, days: 183, unit_price: 13800 },
    { period: 'year', months: 12, days: 366, unit_price: 25800 },
  ],
  pay_methods: ['alipay', 'wechat_pay', 'card'],
  pay_options: (['alipay', 'wechat_pay', 'card'] as const).map((pay_method) => ({
    pay_method,
    gateway_id: null,
    name: null,
    fee_bps: 0,
  })),
};

export function order(fields: Partial<Order> = {}): Order {
  return {
    order_id: 'O1',
    period: 'month',
    months: 1,
    days: 31,
    connections: 2,
    amount: 5000,
    discount: 0,
    coupon_code: null,
    currency: 'CNY',
    pay_method: 'card',
    status: 'unpaid',
    create_time: 1_800_000_000,
    pay_time: 0,
    latest_pay_time: 1_800_001_800,
    checkout_url: '/pay/sandbox/tok?l=us-en',
    usdt_amount: null,
    ...fields,
  };
}

/** The buy page at `url`. */
export function renderBuyPage(url = '/buy'): Promise<Rendered> {
  return renderWithProviders([{ path: '/buy', element: <BuyPage /> }], { url });
}

/**
 * Only the clock is fake, set to `now` before each test (the preview and the countdown are computed
 * for a known "now"); a test of the phone layout has the desktop width back after it.
 */
export function withBuyPageClock(now: number): void {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(now * 1000);
  });
  afterEach(() => {
    vi.useRealTimers();
    setViewportWidth(DESKTOP_WIDTH);
  });
}
