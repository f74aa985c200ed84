import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { formatDateTime } from '@skyway/shared/dates';
import { DAY_SECONDS, type PlanList } from '@skyway/shared/plans';
import type { UserInfo } from '@skyway/shared/user';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { answer, type Answer, ok, refused, requestsTo, sentTo } from '../../../test/network.ts';
import { signIn, userInfo } from '../../../test/user-info.ts';
import { PHONE_WIDTH, setViewportWidth } from '../../../test/viewport.ts';

vi.mock('../../../lib/page.ts', () => import('../../../test/fake-page.ts'));
vi.mock('../../../lib/toast.ts', () => import('../../../test/fake-toast.ts'));

const { openPage } = await import('../../../test/fake-page.ts');
const { PLAN_LIST, order, renderBuyPage, withBuyPageClock } = await import('../test/buy-test-kit.tsx');

const NOW = 1_800_000_000;
const day = (n: number) => n * DAY_SECONDS;

/**
 * Stands in for the server: `info` is what `/web/user/info` answers, `stored` the user this browser
 * kept from an earlier reply (the same unless a test says otherwise), `create` the reply to an order.
 */
function answerBuy(
  info: UserInfo,
  create?: Answer,
  { stored = info, plans = PLAN_LIST }: { stored?: UserInfo; plans?: PlanList } = {},
) {
  signIn(stored);
  answer('/web/plan/list', ok(plans));
  answer('/web/user/info', ok(info));
  if (create) answer('/web/order/create', create);
}

const connectionsInput = () => screen.getByLabelText<HTMLInputElement>('Simultaneous connections');

/** The page with its plans and the user info loaded (the field takes its starting value from it). */
async function waitForPage() {
  await screen.findByRole('radio', { name: /Monthly/ });
  await waitFor(() => expect(connectionsInput().disabled).toBe(false));
}

async function openPageWith(info: UserInfo) {
  answerBuy(info);
  await renderBuyPage();
  await waitForPage();
}

function setConnections(value: number) {
  fireEvent.change(connectionsInput(), { target: { value: String(value) } });
  fireEvent.blur(connectionsInput());
}

const preview = () => screen.getByRole('region', { name: 'What this purchase does' });
const total = () => screen.getByTestId('buy-total').textContent;
const buyButtons = () => screen.getAllByRole('button', { name: /Buy now/ });
const payMethods = () => screen.getByRole('radiogroup', { name: 'Payment method' });
const payMethod = (name: RegExp) => within(payMethods()).getByRole<HTMLInputElement>('radio', { name });

withBuyPageClock(NOW);

describe('BuyPage', () => {
  it('shows the three plans with their months, days and unit price per connection', async () => {
    await openPageWith(userInfo());
    const month = screen.getByRole('radio', { name: /Monthly/ });
    const halfYear = screen.getByRole('radio', { name: /Half-yearly/ });
    const year = screen.getByRole('radio', { name: /Yearly/ });
    expect(month.closest('label')?.textContent).toBe('Monthly1 mo · 31 days¥25.00per connection');
    expect(halfYear.closest('label')?.textContent).toContain('6 mo · 183 days¥138.00');
    expect(year.closest('label')?.textContent).toContain('12 mo · 366 days¥258.00');
    expect((month as HTMLInputElement).checked).toBe(true);
    expect(screen.getByRole('radiogroup', { name: 'Choose a plan' })).toBeTruthy();
    expect(screen.getByText('How many devices may be online at the same time: 1 to 10.')).toBeTruthy();
  });

  it('offers each method the server enabled with its mark, the first chosen, and the app store disabled', async () => {
    await openPageWith(userInfo());
    const choices = within(payMethods()).getAllByRole<HTMLInputElement>('radio');
    expect(choices.map((choice) => choice.closest('label')?.textContent)).toEqual([
      "AlipayPay in the Alipay app or on Alipay's page.",
      'WeChat PayPay with the WeChat app.',
      "CardDebit or credit card, on our payment provider's secure checkout page.",
      'App Store subscriptionBought in the mobile app with your app-store account, which renews it automatically; it cannot be bought here.',
    ]);
    // Each method's mark sits beside its name, hidden from assistive technology (the name says it).
    const marks = choices.slice(0, 3).map((choice) => choice.closest('label')?.querySelector('svg'));
    expect(marks.map((mark) => mark?.getAttribute('data-method'))).toEqual(['alipay', 'wechat_pay', 'card']);
    expect(marks.every((mark) => mark?.getAttribute('aria-hidden') === 'true')).toBe(true);
    expect(choices.map((choice) => choice.checked)).toEqual([true, false, false, false]);
    expect(choices.map((choice) => choice.disabled)).toEqual([false, false, false, true]);
    fireEvent.click(payMethod(/Card/));
    expect(payMethod(/Card/).checked).toBe(true);
    expect(payMethod(/Alipay/).checked).toBe(false);
  });

  it('shows a single enabled method as the chosen one, and orders with it', async () => {
    answerBuy(userInfo(), ok(order({ checkout_url: '/pay/sandbox/card' })), {
      plans: {
        ...PLAN_LIST,
        pay_methods: ['card'],
        pay_options: [{ pay_method: 'card', gateway_id: null, name: null, fee_bps: 0 }],
      },
    });
    await renderBuyPage();
    await waitForPage();
    expect(within(payMethods()).getAllByRole('radio')).toHaveLength(2);
    expect(payMethod(/Card/).checked).toBe(true);
    expect(within(payMethods()).queryByRole('radio', { name: /Alipay|WeChat/ })).toBeNull();
    fireEvent.click(buyButtons()[0] as HTMLElement);
    await waitFor(() => expect(openPage).toHaveBeenCalledWith('/pay/sandbox/card'));
    expect(await sentTo('/web/order/create')).toEqual([
      { period: 'month', connections: 1, pay_method: 'card' },
    ]);
  });

  it('prices the order as unit price × connections, in yuan', async () => {
    await openPageWith(userInfo());
    expect(total()).toBe('¥25.00');
    setConnections(3);
    await waitFor(() => expect(total()).toBe('¥75.00'));
    fireEvent.click(screen.getByRole('radio', { name: /Yearly/ }));
    await waitFor(() => expect(total()).toBe('¥774.00'));
    setConnections(99);
    await waitFor(() => expect(connectionsInput().value).toBe('10'));
    expect(total()).toBe('¥2580.00');
  });

  it('previews a new plan as starting now', async () => {
    await openPageWith(userInfo());
    await waitFor(() => expect(preview().textContent).toContain('Your access starts now.'));
    expect(preview().textContent).toContain(`Access until${formatDateTime(NOW + day(31))}`);
  });

  it('previews the same size as an extension of the expiry', async () => {
    const expiry = NOW + day(10);
    await openPageWith(userInfo({ expire_user: expiry, subscribe_type: 2, connections: 2 }));
    // A customer with access starts from the size they have.
    expect(connectionsInput().value).toBe('2');
    await waitFor(() =>
      expect(preview().textContent).toContain('The period is added to your current access.'),
    );
    expect(preview().textContent).toContain(
      `Expiry${formatDateTime(expiry)} → ${formatDateTime(expiry + day(31))}`,
    );
  });

  it('previews more connections as an upgrade at once, the remaining time converted', async () => {
    const expiry = NOW + day(10);
    await openPageWith(userInfo({ expire_user: expiry, subscribe_type: 2, connections: 1 }));
    setConnections(2);
    await waitFor(() => expect(preview().textContent).toContain('Upgrade at once'));
    expect(within(preview()).getByText('1 → 2')).toBeTruthy();
    // Ten days at one connection are five at two; then the month.
    const after = NOW + day(5) + day(31);
    expect(preview().textContent).toContain(`Expiry${formatDateTime(expiry)} → ${formatDateTime(after)}`);
  });

  it('previews fewer connections as a downgrade at expiry', async () => {
    const expiry = NOW + day(10);
    await openPageWith(userInfo({ expire_user: expiry, subscribe_type: 2, connections: 3 }));
    setConnections(1);
    await waitFor(() =>
      expect(preview().textContent).toContain(
        `Downgrade at expiry: your current connections stay until ${formatDateTime(expiry)}, then the new number applies.`,
      ),
    );
    expect(preview().textContent).toContain(`Connections until ${formatDateTime(expiry)}3`);
    expect(preview().textContent).toContain(`Connections from ${formatDateTime(expiry)}1`);
    expect(preview().textContent).toContain(
      `Expiry${formatDateTime(expiry)} → ${formatDateTime(expiry + day(31))}`,
    );
    // Every date is a piece of its own that a narrow screen keeps on one line (white-space: nowrap).
    const dates = within(preview()).getAllByText(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(dates.map((date) => date.textContent)).toEqual([
      formatDateTime(expiry),
      formatDateTime(expiry),
      formatDateTime(expiry),
      formatDateTime(expiry),
      formatDateTime(expiry + day(31)),
    ]);
    expect(dates.every((date) => date.classList.contains('buy-preview__date'))).toBe(true);
  });

  it('keeps a pending downgrade in the preview of another downgrade', async () => {
    const expiry = NOW + day(20);
    const pendingFrom = NOW + day(10);
    await openPageWith(
      userInfo({ expire_user: expiry, connections: 4, pending_connections: 2, pending_from: pendingFrom }),
    );
    setConnections(1);
    // The pending ten days at two connections are twenty at one.
    await waitFor(() =>
      expect(preview().textContent).toContain(`Connections from ${formatDateTime(pendingFrom)}1`),
    );
    expect(preview().textContent).toContain(
      `Expiry${formatDateTime(expiry)} → ${formatDateTime(pendingFrom + day(20) + day(31))}`,
    );
  });

  it('previews the current size while a downgrade is pending as keeping it, the downgrade dropped', async () => {
    const expiry = NOW + day(20);
    const pendingFrom = NOW + day(10);
    await openPageWith(
      userInfo({ expire_user: expiry, connections: 2, pending_connections: 1, pending_from: pendingFrom }),
    );
    expect(connectionsInput().value).toBe('2');
    await waitFor(() => expect(preview().textContent).toContain('You keep your current connections'));
    expect(preview().textContent).toContain('Connections2');
    // Ten days at two, then ten at one: fifteen at two; then the month.
    const after = NOW + day(15) + day(31);
    expect(preview().textContent).toContain(`Expiry${formatDateTime(expiry)} → ${formatDateTime(after)}`);
  });

  it('creates the order with the chosen plan and connections, then goes to its checkout', async () => {
    answerBuy(
      userInfo(),
      ok({
        order_id: 'O9',
        amount: 51600,
        fee: 0,
        latest_pay_time: NOW + 1800,
        checkout_url: '/pay/sandbox/tok?l=us-en',
      }),
    );
    await renderBuyPage();
    await waitForPage();
    fireEvent.click(screen.getByRole('radio', { name: /Yearly/ }));
    setConnections(2);
    fireEvent.click(payMethod(/WeChat Pay/));
    await waitFor(() => expect(total()).toBe('¥516.00'));
    expect(buyButtons()).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: /Buy now/ }));
    await waitFor(() => expect(openPage).toHaveBeenCalledWith('/pay/sandbox/tok?l=us-en'));
    expect(await sentTo('/web/order/create')).toEqual([
      { period: 'year', connections: 2, pay_method: 'wechat_pay' },
    ]);
    // On a wide screen the summary holds the Buy button: there is no bottom bar.
    expect(screen.queryByTestId('buy-bar')).toBeNull();
  });

  it('stays on the page when the order cannot be created', async () => {
    answerBuy(userInfo(), refused(409, 'The order could not be created'));
    await renderBuyPage();
    const buy = await screen.findByRole('button', { name: /Buy now/ });
    fireEvent.click(buy);
    await waitFor(() => expect(requestsTo('/web/order/create')).toHaveLength(1));
    await waitFor(() => expect(buy.classList.contains('ant-btn-loading')).toBe(false));
    expect(openPage).not.toHaveBeenCalled();
  });

  describe('starting connections', () => {
    it('follow the fresh user info when the stored user is behind it (back from a checkout)', async () => {
      const expiry = NOW + day(31);
      // The browser still holds the user of before the payment: no access, one connection.
      answerBuy(userInfo({ expire_user: expiry, subscribe_type: 2, connections: 3 }), undefined, {
        stored: userInfo({ expire_user: 0, connections: 1 }),
      });
      await renderBuyPage();
      await waitForPage();
      expect(connectionsInput().value).toBe('3');
      await waitFor(() => expect(preview().getAttribute('data-effect')).toBe('extend'));
      expect(preview().textContent).toContain('The period is added to your current access.');
      expect(preview().textContent).not.toContain('Downgrade');
      expect(total()).toBe('¥75.00');
    });

    it('are one for a customer whose access has ended', async () => {
      await openPageWith(userInfo({ expire_user: NOW - day(1), subscribe_type: 2, connections: 4 }));
      expect(connectionsInput().value).toBe('1');
      await waitFor(() => expect(preview().textContent).toContain('Your access starts now.'));
    });

    it('stay as the customer set them when the user info changes', async () => {
      answerBuy(userInfo());
      const { queryClient } = await renderBuyPage();
      await waitForPage();
      setConnections(4);
      await waitFor(() => expect(total()).toBe('¥100.00'));
      answerBuy(userInfo({ expire_user: NOW + day(31), subscribe_type: 2, connections: 2 }));
      await act(() => queryClient.invalidateQueries());
      await waitFor(() => expect(preview().getAttribute('data-effect')).toBe('upgrade'));
      expect(connectionsInput().value).toBe('4');
    });
  });

  describe('on a phone', () => {
    beforeEach(() => {
      setViewportWidth(PHONE_WIDTH);
    });

    it('keeps the total and the one Buy button in a bar at the bottom of the screen', async () => {
      answerBuy(userInfo(), ok(order({ checkout_url: '/pay/sandbox/phone' })));
      await renderBuyPage();
      await waitForPage();
      const bar = screen.getByTestId('buy-bar');
      expect(bar.textContent).toBe('Total¥25.00Buy now');
      setConnections(3);
      await waitFor(() => expect(bar.textContent).toContain('¥75.00'));
      // The summary keeps its total but gives its button to the bar: a single Buy button on screen.
      expect(total()).toBe('¥75.00');
      expect(buyButtons()).toHaveLength(1);
      fireEvent.click(within(bar).getByRole('button', { name: /Buy now/ }));
      await waitFor(() => expect(openPage).toHaveBeenCalledWith('/pay/sandbox/phone'));
      expect(await sentTo('/web/order/create')).toEqual([
        { period: 'month', connections: 3, pay_method: 'alipay' },
      ]);
    });
  });

  describe('for an app-store subscriber', () => {
    const ENDS = NOW + day(20);
    const status = () => screen.getByRole('region', { name: 'Subscribed through the app store' });
    const cancelHint = `To cancel, turn off auto-renew in your device's subscription settings (App Store) at least 24 hours before ${formatDateTime(ENDS)}.`;

    it('shows auto-renew on with the renewal date and how to cancel, and still sells a card plan after the period', async () => {
      const info = userInfo({
        subscribe_type: 3,
        auto_renew: true,
        app_store_expire: ENDS,
        expire_user: ENDS,
        connections: 2,
      });
      answerBuy(info, ok(order({ checkout_url: '/pay/sandbox/app' })));
      await renderBuyPage();
      const region = await screen.findByRole('region', { name: 'Subscribed through the app store' });
      expect(within(region).getByRole('heading', { level: 2 }).textContent).toContain(
        'Subscribed through the app store',
      );
      expect(region.textContent).toContain(`Auto-renew: on — renews on ${formatDateTime(ENDS)}`);
      expect(region.textContent).toContain(cancelHint);
      expect(region.textContent).toContain(
        `its time is added after your current app-store period, which ends on ${formatDateTime(ENDS)}`,
      );
      expect(region.textContent).toContain('keeps renewing');
      // The preview adds the card time after the app-store period.
      await waitFor(() => expect(preview().getAttribute('data-effect')).toBe('extend'));
      expect(preview().textContent).toContain(`${formatDateTime(ENDS)} → ${formatDateTime(ENDS + day(31))}`);
      fireEvent.click(screen.getByRole('button', { name: /Buy now/ }));
      await waitFor(() => expect(openPage).toHaveBeenCalledWith('/pay/sandbox/app'));
      expect(await sentTo('/web/order/create')).toEqual([
        { period: 'month', connections: 2, pay_method: 'alipay' },
      ]);
    });

    it('shows auto-renew off with the date access ends, and no cancel instruction', async () => {
      await openPageWith(
        userInfo({ subscribe_type: 3, auto_renew: false, app_store_expire: ENDS, expire_user: ENDS }),
      );
      const region = await waitFor(status);
      expect(region.textContent).toContain(`Auto-renew: off — access ends on ${formatDateTime(ENDS)}`);
      expect(region.textContent).not.toContain('To cancel');
      expect(region.textContent).not.toContain('Auto-renew: on');
      expect(region.textContent).toContain(
        `its time is added after your app-store period, which ends on ${formatDateTime(ENDS)}`,
      );
      expect(region.textContent).not.toContain('keeps renewing');
    });

    it('says access ended once the period is over, without the card note', async () => {
      const ended = NOW - day(2);
      await openPageWith(
        userInfo({ subscribe_type: 3, auto_renew: false, app_store_expire: ended, expire_user: ended }),
      );
      const region = await waitFor(status);
      expect(region.textContent).toContain(`Auto-renew: off — access ended on ${formatDateTime(ended)}`);
      expect(region.textContent).not.toContain('added after');
    });

    it.each([1, 2] as const)('shows none of it for subscription type %i', async (type) => {
      await openPageWith(
        userInfo({ subscribe_type: type, auto_renew: true, app_store_expire: ENDS, expire_user: ENDS }),
      );
      // The user info has arrived: the preview is drawn from it.
      await waitFor(() => expect(preview()).toBeTruthy());
      expect(screen.queryByRole('region', { name: 'Subscribed through the app store' })).toBeNull();
      expect(document.body.textContent).not.toContain('Auto-renew');
      expect(document.body.textContent).not.toContain('To cancel');
    });
  });
});
