import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { answer, ok, refused, requestsTo, sentTo } from '../../../test/network.ts';
import { signIn, userInfo } from '../../../test/user-info.ts';

vi.mock('../../../lib/page.ts', () => import('../../../test/fake-page.ts'));
vi.mock('../../../lib/toast.ts', () => import('../../../test/fake-toast.ts'));

const { openPage } = await import('../../../test/fake-page.ts');
const { showError } = await import('../../../test/fake-toast.ts');
const { PLAN_LIST, order, renderBuyPage, withBuyPageClock } = await import('../test/buy-test-kit.tsx');

const NOW = 1_800_000_000;
withBuyPageClock(NOW);

/** The buy page of a new buyer (one connection), the server previewing coupons with `check`. */
async function openBuyPage(check: (payload: Record<string, unknown>) => ReturnType<typeof ok>) {
  const info = userInfo();
  signIn(info);
  answer('/web/plan/list', ok(PLAN_LIST));
  answer('/web/user/info', ok(info));
  answer('/web/coupon/check', check);
  await renderBuyPage();
  await screen.findByRole('radio', { name: /Monthly/ });
  await waitFor(() =>
    expect(screen.getByLabelText<HTMLInputElement>('Simultaneous connections').disabled).toBe(false),
  );
}

function applyCoupon(code: string) {
  fireEvent.change(screen.getByLabelText('Coupon code'), { target: { value: code } });
  fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
}

const total = () => screen.getByTestId('buy-total').textContent;

/** 20 % off whatever the plan and connections come to. */
const twentyOff = (payload: Record<string, unknown>) => {
  const price = (payload.period === 'year' ? 25_800 : 2500) * Number(payload.connections);
  const discount = Math.round(price / 5);
  return ok({ code: 'SPRING20', price, discount, discounted: price - discount });
};

describe('the coupon on the buy page', () => {
  it('shows the price before and after, and orders with the code', async () => {
    await openBuyPage(twentyOff);
    expect(total()).toBe('¥25.00');
    applyCoupon(' spring20 ');
    await screen.findByText(/Coupon SPRING20 applied: ¥5.00 off/);
    expect(await sentTo('/web/coupon/check')).toEqual([
      { code: 'spring20', period: 'month', connections: 1 },
    ]);
    expect(screen.getByTestId('buy-price').textContent).toBe('¥25.00');
    expect(screen.getByTestId('buy-discount').textContent).toBe('− ¥5.00');
    expect(total()).toBe('¥20.00');

    // Another plan is asked about again.
    fireEvent.click(screen.getByRole('radio', { name: /Yearly/ }));
    await waitFor(() => expect(total()).toBe('¥206.40'));

    answer(
      '/web/order/create',
      ok({
        ...order(),
        amount: 20_640,
        discount: 5160,
        fee: 0,
        checkout_url: '/pay/sandbox/tok',
        paid: false,
      }),
    );
    fireEvent.click(screen.getByRole('button', { name: /Buy now/ }));
    await waitFor(() => expect(openPage).toHaveBeenCalledWith('/pay/sandbox/tok'));
    expect(await sentTo('/web/order/create')).toEqual([
      { period: 'year', connections: 1, pay_method: 'alipay', coupon_code: 'SPRING20' },
    ]);
  });

  it('shows the server’s reason beside the field, takes nothing off, and orders without it', async () => {
    await openBuyPage(() => refused(400, 'This coupon has expired', { reason: 'coupon_expired' }));
    applyCoupon('OLD');
    const status = await screen.findByText('This coupon has expired');
    expect(status.closest('#buy-coupon-status')).not.toBeNull();
    expect(showError).not.toHaveBeenCalled();
    expect(screen.getByLabelText('Coupon code').getAttribute('aria-invalid')).toBe('true');
    expect(total()).toBe('¥25.00');
    expect(screen.queryByTestId('buy-discount')).toBeNull();
    answer('/web/order/create', ok({ ...order(), checkout_url: '/pay/sandbox/tok', fee: 0, paid: false }));
    fireEvent.click(screen.getByRole('button', { name: /Buy now/ }));
    await waitFor(() => expect(requestsTo('/web/order/create')).toHaveLength(1));
    expect((await sentTo('/web/order/create'))[0]).not.toHaveProperty('coupon_code');
  });

  it('removes the coupon', async () => {
    await openBuyPage(twentyOff);
    applyCoupon('SPRING20');
    await screen.findByText(/applied/);
    fireEvent.click(screen.getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(total()).toBe('¥25.00'));
    expect(screen.queryByTestId('buy-discount')).toBeNull();
  });

  it('shows a free order as paid, without any checkout', async () => {
    await openBuyPage(() => ok({ code: 'FREE', price: 2500, discount: 2500, discounted: 0 }));
    applyCoupon('FREE');
    await waitFor(() => expect(total()).toBe('¥0.00'));
    answer(
      '/web/order/create',
      ok({ ...order(), amount: 0, discount: 2500, fee: 0, checkout_url: '', paid: true }),
    );
    answer('/web/order/query', ok(order({ amount: 0, discount: 2500, status: 'paid', checkout_url: null })));
    fireEvent.click(screen.getByRole('button', { name: /Buy now/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Payment inquiry' });
    await within(dialog).findByText('Payment received');
    expect(openPage).not.toHaveBeenCalled();
  });
});
