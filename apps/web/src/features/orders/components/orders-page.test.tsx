import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { formatDateTime } from '@skyway/shared/dates';
import type { Order } from '@skyway/shared/plans';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { answer, type Answer, ok, refused, requestsTo, sentTo } from '../../../test/network.ts';
import { type Rendered, renderWithProviders } from '../../../test/render.tsx';
import { DESKTOP_WIDTH, PHONE_WIDTH, setViewportWidth } from '../../../test/viewport.ts';

vi.mock('../../../lib/page.ts', () => import('../../../test/fake-page.ts'));
vi.mock('../../../lib/toast.ts', () => import('../../../test/fake-toast.ts'));

const { openPage } = await import('../../../test/fake-page.ts');
const { showSuccess } = await import('../../../test/fake-toast.ts');
const { OrdersPage } = await import('./orders-page.tsx');

function order(fields: Partial<Order>): Order {
  return {
    order_id: 'O1',
    period: 'month',
    months: 1,
    days: 31,
    connections: 1,
    amount: 2500,
    discount: 0,
    coupon_code: null,
    currency: 'CNY',
    pay_method: 'card',
    status: 'paid',
    create_time: 1_800_000_000,
    pay_time: 0,
    latest_pay_time: 1_800_001_800,
    checkout_url: null,
    usdt_amount: null,
    ...fields,
  };
}

const UNPAID = order({
  order_id: 'SW-UNPAID',
  months: 12,
  connections: 2,
  amount: 51600,
  pay_method: 'alipay',
  status: 'unpaid',
  latest_pay_time: 1_800_300_000,
  checkout_url: 'https://checkout.stripe.com/c/pay/cs_test_1',
});
const PAID = order({
  order_id: 'SW-PAID',
  status: 'paid',
  pay_method: 'wechat_pay',
  pay_time: 1_800_000_100,
});
const EXPIRED = order({ order_id: 'SW-EXPIRED', months: 6, amount: 13800, status: 'expired' });
const CANCELLED = order({ order_id: 'SW-CANCELLED', status: 'cancelled' });
const ROWS = [UNPAID, PAID, EXPIRED, CANCELLED];

/** The server: the order list, and the reply to a cancel. */
function answerOrders(list: Answer, cancel: Answer = ok()) {
  answer('/web/order/list', list);
  answer('/web/order/cancel', cancel);
}

const rowsReply = (total = 4) => ok({ total, list: ROWS });

/** The orders page at /order, once `shown` is on screen. */
async function renderPage(shown = 'SW-PAID'): Promise<Rendered> {
  const rendered = await renderWithProviders(
    [
      { path: '/order', element: <OrdersPage /> },
      { path: '/buy', element: <p>buy page</p> },
    ],
    { url: '/order' },
  );
  await screen.findByText(shown);
  return rendered;
}

function row(orderId: string) {
  const element = screen.getByText(orderId).closest('tr');
  if (!element) throw new Error(`no row ${orderId}`);
  return element;
}

function card(orderId: string) {
  const element = screen.getByText(orderId).closest('li');
  if (!element) throw new Error(`no card ${orderId}`);
  return element;
}

const listCalls = () => requestsTo('/web/order/list');

afterEach(() => {
  setViewportWidth(DESKTOP_WIDTH);
});

describe('OrdersPage', () => {
  it("shows the spec's columns, with formatted times, yuan and status labels", async () => {
    answerOrders(rowsReply());
    await renderPage();
    expect(await sentTo('/web/order/list')).toEqual([{ page: 1, size: 10 }]);
    const headers = screen.getAllByRole('columnheader').map((cell) => cell.textContent);
    expect(headers).toEqual([
      'Order ID',
      'Duration (months)',
      'Payment time',
      'Pay before',
      'Amount',
      'Payment method',
      'Status',
      'Actions',
    ]);

    const unpaid = within(row('SW-UNPAID'));
    expect(unpaid.getByText('12')).toBeTruthy();
    expect(unpaid.getByText('–')).toBeTruthy();
    expect(unpaid.getByText(formatDateTime(1_800_300_000))).toBeTruthy();
    expect(unpaid.getByText('¥516.00')).toBeTruthy();
    expect(unpaid.getByText('Unpaid')).toBeTruthy();
    expect(unpaid.getByText('Alipay')).toBeTruthy();
    expect(unpaid.getByRole('button', { name: 'Pay' })).toBeTruthy();
    expect(unpaid.getByRole('button', { name: 'Cancel' })).toBeTruthy();

    const paid = within(row('SW-PAID'));
    expect(paid.getByText(formatDateTime(1_800_000_100))).toBeTruthy();
    expect(paid.getByText('¥25.00')).toBeTruthy();
    expect(paid.getByText('Paid')).toBeTruthy();
    expect(paid.getByText('WeChat Pay')).toBeTruthy();
    expect(paid.queryByRole('button')).toBeNull();

    expect(within(row('SW-EXPIRED')).getByText('Expired unpaid')).toBeTruthy();
    expect(within(row('SW-EXPIRED')).getByText('¥138.00')).toBeTruthy();
    expect(within(row('SW-EXPIRED')).getByText('Card')).toBeTruthy();
    expect(within(row('SW-EXPIRED')).queryByRole('button')).toBeNull();
    expect(within(row('SW-CANCELLED')).getByText('Cancelled')).toBeTruthy();
    expect(within(row('SW-CANCELLED')).queryByRole('button')).toBeNull();
  });

  it('shows a USDT order with the USDT its buyer was asked for', async () => {
    const usdt = order({ order_id: 'SW-USDT', pay_method: 'usdt', amount: 2500, usdt_amount: '3.4722' });
    answerOrders(ok({ total: 1, list: [usdt] }));
    await renderPage('SW-USDT');
    expect(within(row('SW-USDT')).getByText('¥25.00 · 3.4722 USDT')).toBeTruthy();
    expect(within(row('SW-USDT')).getByText('USDT (TRC20)')).toBeTruthy();
  });

  it('shows what a coupon took off an order', async () => {
    const coupon = order({ order_id: 'SW-COUPON', amount: 2000, discount: 500, coupon_code: 'SPRING' });
    answerOrders(ok({ total: 1, list: [coupon] }));
    await renderPage('SW-COUPON');
    expect(within(row('SW-COUPON')).getByText('¥20.00 · coupon SPRING: ¥5.00 off')).toBeTruthy();
  });

  it('shows a redemption as a paid order of ¥0 by redeem code, a days grant in days', async () => {
    const redeemed = order({
      order_id: 'SW-REDEEMED',
      period: 'days',
      months: 0,
      days: 7,
      amount: 0,
      pay_method: 'redeem_code',
      status: 'paid',
      pay_time: 1_800_000_100,
    });
    answerOrders(ok({ total: 1, list: [redeemed] }));
    await renderPage('SW-REDEEMED');
    const cells = within(row('SW-REDEEMED'));
    expect(cells.getByText('7 days')).toBeTruthy();
    expect(cells.getByText('Redeem code')).toBeTruthy();
    expect(cells.getByText('¥0.00')).toBeTruthy();
    expect(cells.getByText('Paid')).toBeTruthy();
    expect(cells.queryByRole('button', { name: 'Pay' })).toBeNull();
  });

  it('pays an unpaid order at its checkout', async () => {
    answerOrders(rowsReply());
    await renderPage();
    fireEvent.click(within(row('SW-UNPAID')).getByRole('button', { name: 'Pay' }));
    expect(openPage).toHaveBeenCalledWith('https://checkout.stripe.com/c/pay/cs_test_1');
  });

  it('cancels an unpaid order after confirmation, then reloads the list', async () => {
    answerOrders(() =>
      ok({
        total: 4,
        list:
          listCalls().length > 1
            ? [{ ...UNPAID, status: 'cancelled', checkout_url: null }, PAID, EXPIRED, CANCELLED]
            : ROWS,
      }),
    );
    await renderPage();
    fireEvent.click(within(row('SW-UNPAID')).getByRole('button', { name: 'Cancel' }));
    const confirm = await screen.findByRole('button', { name: 'Cancel order' });
    expect(screen.getByText('Cancel this order?')).toBeTruthy();
    fireEvent.click(confirm);
    await waitFor(() => expect(showSuccess).toHaveBeenCalledWith('Order cancelled', 1.5));
    expect(await sentTo('/web/order/cancel')).toEqual([{ order_id: 'SW-UNPAID' }]);
    await waitFor(() => expect(listCalls()).toHaveLength(2));
    await waitFor(() => expect(within(row('SW-UNPAID')).getByText('Cancelled')).toBeTruthy());
    expect(within(row('SW-UNPAID')).queryByRole('button')).toBeNull();
  });

  it('keeps the order when the confirmation is declined', async () => {
    answerOrders(rowsReply());
    await renderPage();
    fireEvent.click(within(row('SW-UNPAID')).getByRole('button', { name: 'Cancel' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Keep it' }));
    expect(requestsTo('/web/order/cancel')).toHaveLength(0);
  });

  it('reloads the list when the server refuses the cancel (409: paid meanwhile)', async () => {
    answerOrders(rowsReply(), refused(409, 'This order can no longer be cancelled'));
    await renderPage();
    fireEvent.click(within(row('SW-UNPAID')).getByRole('button', { name: 'Cancel' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel order' }));
    await waitFor(() => expect(listCalls()).toHaveLength(2));
    expect(showSuccess).not.toHaveBeenCalled();
  });

  it('asks the server for the page the pagination moves to', async () => {
    answerOrders(rowsReply(25));
    await renderPage();
    fireEvent.click(screen.getByTitle('2'));
    await waitFor(async () => expect(await sentTo('/web/order/list')).toContainEqual({ page: 2, size: 10 }));
  });

  describe('on a phone', () => {
    beforeEach(() => {
      setViewportWidth(PHONE_WIDTH);
    });

    it('stacks each order as a card, status and amount first, with no table to swipe', async () => {
      answerOrders(rowsReply());
      await renderPage();
      expect(screen.queryByRole('table')).toBeNull();
      const cards = within(screen.getByRole('list')).getAllByRole('listitem');
      expect(cards).toHaveLength(4);

      const unpaid = card('SW-UNPAID');
      expect(unpaid.textContent).toMatch(/^Unpaid¥516\.00/);
      expect(unpaid.textContent).toContain('Order IDSW-UNPAID');
      expect(unpaid.textContent).toContain('Duration (months)12');
      expect(unpaid.textContent).toContain('Connections2');
      expect(unpaid.textContent).toContain('Payment methodAlipay');
      expect(unpaid.textContent).toContain('Payment time–');
      expect(unpaid.textContent).toContain(`Pay before${formatDateTime(1_800_300_000)}`);
      fireEvent.click(within(unpaid).getByRole('button', { name: 'Pay' }));
      expect(openPage).toHaveBeenCalledWith('https://checkout.stripe.com/c/pay/cs_test_1');
      expect(within(unpaid).getByRole('button', { name: 'Cancel' })).toBeTruthy();

      const paid = card('SW-PAID');
      expect(paid.textContent).toMatch(/^Paid¥25\.00/);
      expect(paid.textContent).toContain('Payment methodWeChat Pay');
      expect(paid.textContent).toContain(`Payment time${formatDateTime(1_800_000_100)}`);
      expect(within(paid).queryByRole('button')).toBeNull();
      expect(card('SW-EXPIRED').textContent).toMatch(/^Expired unpaid¥138\.00/);
    });
  });

  it.each([
    ['wide', DESKTOP_WIDTH],
    ['phone', PHONE_WIDTH],
  ])('says there are no orders yet and leads to the plans (%s)', async (_, width) => {
    setViewportWidth(width);
    answerOrders(ok({ total: 0, list: [] }));
    const { location } = await renderPage('You have no orders yet.');
    expect(screen.queryByRole('table')).toBeNull();
    const plans = screen.getByRole('link', { name: 'Buy a plan' });
    expect(plans.getAttribute('href')).toBe('/buy');
    fireEvent.click(plans);
    await waitFor(() => expect(location()).toBe('/buy'));
  });
});
