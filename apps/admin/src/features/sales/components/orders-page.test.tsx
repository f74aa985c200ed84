import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { answer, ok } from '../../../test/network.ts';
import { renderScreen } from '../../../test/render.tsx';
import { signedInAs } from '../../../test/session.ts';
import type { Order } from '../api/list-orders.ts';
import { OrdersPage } from './orders-page.tsx';

const order: Order = {
  id: 'ORDER1',
  user_id: '00000000-0000-4000-8000-00000000000b',
  email: 'full-price@example.com',
  period: 'month',
  connections: 1,
  amount: 2500,
  coupon_code: null,
  discount: 0,
  currency: 'CNY',
  pay_method: 'alipay',
  provider: 'sandbox',
  gateway_names: null,
  status: 'paid',
  created_at: '2026-03-01T08:00:00.000Z',
  paid_at: '2026-03-01T08:01:00.000Z',
};

const rowOf = async (text: string) => (await screen.findByText(text)).closest('tr') as HTMLElement;

describe('the orders list', () => {
  it('shows the coupon an order used and what it took off, and nothing for one without', async () => {
    signedInAs('viewer');
    const discounted: Order = {
      ...order,
      id: 'ORDER2',
      email: 'coupon@example.com',
      amount: 1999,
      coupon_code: 'SPRING20',
      discount: 501,
    };
    answer(
      'GET',
      '/orders',
      ok({ total: 2, page: 1, size: 20, items: [order, discounted], total_capped: false }),
    );
    await renderScreen(<OrdersPage />);
    const withCoupon = await rowOf('coupon@example.com');
    expect(within(withCoupon).getByText('SPRING20 (−¥5.01)')).toBeTruthy();
    expect(within(withCoupon).getByText('¥19.99')).toBeTruthy();
    expect(within(await rowOf('full-price@example.com')).queryByText(/SPRING20/)).toBeNull();
  });
});
