import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Envelope } from '@skyway/shared/envelope';
import type { Order } from '@skyway/shared/plans';
import { SUBSCRIBE_TYPES } from '@skyway/shared/user';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getSession } from '../../../lib/session.ts';
import { answer, ok, refused, requestsTo, sentTo } from '../../../test/network.ts';
import type { Rendered } from '../../../test/render.tsx';
import { signIn, userInfo } from '../../../test/user-info.ts';

vi.mock('../../../lib/page.ts', () => import('../../../test/fake-page.ts'));
vi.mock('../../../lib/toast.ts', () => import('../../../test/fake-toast.ts'));

const { openPage } = await import('../../../test/fake-page.ts');
const { PLAN_LIST, order, renderBuyPage } = await import('../test/buy-test-kit.tsx');
const { POLL_LIMIT_MS } = await import('./payment-inquiry-dialog.tsx');

const PAID_UNTIL = 1_900_000_000;

/** The order replies in turn (the last one repeats); user info changes once the order is paid. */
function answerInquiry(...orders: Envelope[]) {
  let asked = 0;
  let paid = false;
  answer('/web/plan/list', ok(PLAN_LIST));
  answer('/web/user/info', () =>
    ok(paid ? userInfo({ expire_user: PAID_UNTIL, subscribe_type: 2, connections: 2 }) : userInfo()),
  );
  answer('/web/order/query', () => {
    const reply = orders[Math.min(asked, orders.length - 1)] as Envelope;
    asked += 1;
    if ((reply.data as Partial<Order>).status === 'paid') paid = true;
    return reply;
  });
}

/** The dialog's own buttons; its × is named "Close" as well. */
function footer(dialog: HTMLElement) {
  const element = dialog.querySelector<HTMLElement>('.ant-modal-footer');
  if (!element) throw new Error('no footer');
  return within(element);
}

let page: Rendered;

async function openDialog(url = '/buy?order_id=O1') {
  page = await renderBuyPage(url);
  return screen.findByRole('dialog', { name: 'Payment inquiry' });
}

const where = () => page.location();

beforeEach(() => {
  signIn();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('PaymentInquiryDialog', () => {
  it('opens from ?order_id, 400 px wide, and asks about that order', async () => {
    answerInquiry(ok(order()));
    const dialog = await openDialog();
    expect(dialog.closest<HTMLElement>('.ant-modal')?.style.width).toBe('400px');
    await within(dialog).findByText('Waiting for the payment to be confirmed…');
    expect(await sentTo('/web/order/query')).toContainEqual({ order_id: 'O1' });
    // A checkout left with Cancel comes back unpaid: it can be paid without waiting a minute.
    fireEvent.click(footer(dialog).getByRole('button', { name: 'Pay now' }));
    expect(openPage).toHaveBeenCalledWith('/pay/sandbox/tok?l=us-en');
  });

  it('polls until the order is paid, shows it and refreshes the user; Done closes and drops order_id', async () => {
    answerInquiry(
      ok(order({ pay_method: 'wechat_pay' })),
      ok(order({ pay_method: 'wechat_pay', status: 'paid', pay_time: 1_800_000_100, checkout_url: null })),
    );
    const dialog = await openDialog();
    await within(dialog).findByText('Waiting for the payment to be confirmed…');
    expect(requestsTo('/web/user/info')).toHaveLength(1);

    await within(dialog).findByText('Payment received');
    expect(requestsTo('/web/order/query')).toHaveLength(2);
    expect(dialog.textContent).toContain('Amount¥50.00');
    expect(dialog.textContent).toContain('Payment methodWeChat Pay');
    expect(dialog.textContent).toContain('Duration (months)1');
    expect(dialog.textContent).toContain('Connections2');
    await waitFor(() => expect(requestsTo('/web/user/info')).toHaveLength(2));
    await waitFor(() => expect(getSession().user?.expire_user).toBe(PAID_UNTIL));
    expect(getSession().user?.subscribe_type).toBe(SUBSCRIBE_TYPES.card);

    fireEvent.click(footer(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(where()).toBe('/buy');
    // The page now starts from the two connections just bought: buying again extends them.
    expect(screen.getByLabelText<HTMLInputElement>('Simultaneous connections').value).toBe('2');
    await waitFor(() =>
      expect(
        screen.getByRole('region', { name: 'What this purchase does' }).getAttribute('data-effect'),
      ).toBe('extend'),
    );
  });

  it('points a paid order to My devices, where each connection is set up', async () => {
    answerInquiry(ok(order({ status: 'paid', pay_time: 1_800_000_100, checkout_url: null })));
    const dialog = await openDialog();
    await within(dialog).findByText('Payment received');
    expect(dialog.textContent).toContain('set them up in My devices');

    const setUp = footer(dialog).getByRole('link', { name: 'Set up devices' });
    expect(setUp.getAttribute('href')).toBe('/devices');
    fireEvent.click(setUp);
    await waitFor(() => expect(where()).toBe('/devices'));
  });

  it('gives up after a minute: "Not paid yet" with Pay now and Check again', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    answerInquiry(ok(order()));
    const dialog = await openDialog();
    await within(dialog).findByText('Waiting for the payment to be confirmed…');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(POLL_LIMIT_MS);
    });
    await within(dialog).findByText('Not paid yet');
    const asked = requestsTo('/web/order/query').length;
    expect(asked).toBeGreaterThanOrEqual(25);
    expect(asked).toBeLessThanOrEqual(32);
    // Nothing more is asked once it has given up.
    await act(async () => {
      await vi.advanceTimersByTimeAsync(10_000);
    });
    expect(requestsTo('/web/order/query')).toHaveLength(asked);

    fireEvent.click(footer(dialog).getByRole('button', { name: 'Pay now' }));
    expect(openPage).toHaveBeenCalledWith('/pay/sandbox/tok?l=us-en');

    fireEvent.click(footer(dialog).getByRole('button', { name: 'Check again' }));
    await within(dialog).findByText('Waiting for the payment to be confirmed…');
    await waitFor(() => expect(requestsTo('/web/order/query').length).toBeGreaterThan(asked));
  });

  it('says when the order expired, and closing drops order_id', async () => {
    answerInquiry(ok(order({ status: 'expired', checkout_url: null })));
    const dialog = await openDialog();
    await within(dialog).findByText('This order expired before it was paid.');
    expect(within(dialog).queryByRole('button', { name: 'Pay now' })).toBeNull();
    fireEvent.click(footer(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(where()).toBe('/buy');
    expect(requestsTo('/web/order/query')).toHaveLength(1);
  });

  it('says when the order was cancelled', async () => {
    answerInquiry(ok(order({ status: 'cancelled', checkout_url: null })));
    const dialog = await openDialog();
    await within(dialog).findByText('This order was cancelled.');
  });

  it('says when the order cannot be read, and can ask again', async () => {
    answerInquiry(refused(404, 'No such order'), ok(order({ status: 'paid', checkout_url: null })));
    const dialog = await openDialog();
    await within(dialog).findByText('The order could not be read.');
    fireEvent.click(footer(dialog).getByRole('button', { name: 'Check again' }));
    await within(dialog).findByText('Payment received');
  });

  it('closes with the × too, keeping the rest of the query', async () => {
    answerInquiry(ok(order()));
    const dialog = await openDialog('/buy?order_id=O1&from=checkout');
    const cross = dialog.querySelector<HTMLElement>('.ant-modal-close');
    if (!cross) throw new Error('no ×');
    fireEvent.click(cross);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(where()).toBe('/buy?from=checkout');
  });
});
