import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { formatDateTime } from '@skyway/shared/dates';
import type { PayOption, PlanList } from '@skyway/shared/plans';
import { describe, expect, it, vi } from 'vitest';
import { answer, ok, requestsTo, sentTo } from '../../../test/network.ts';
import { signIn, userInfo } from '../../../test/user-info.ts';
import { PHONE_WIDTH, setViewportWidth } from '../../../test/viewport.ts';
import { formatCountdown } from './scan-to-pay-dialog.tsx';

vi.mock('../../../lib/page.ts', () => import('../../../test/fake-page.ts'));
vi.mock('../../../lib/toast.ts', () => import('../../../test/fake-toast.ts'));

const { openPage } = await import('../../../test/fake-page.ts');
const { PLAN_LIST, order, renderBuyPage, withBuyPageClock } = await import('../test/buy-test-kit.tsx');

const NOW = 1_800_000_000;
const EPAY = '3f0c3a52-5d1e-4c4e-9b7a-0a1b2c3d4e5f';
const CHEAP = '7d1e2f30-1111-4222-8333-944455566677';

const own = (pay_method: PayOption['pay_method']): PayOption => ({
  pay_method,
  gateway_id: null,
  name: null,
  fee_bps: 0,
});

/** The site's card, and an Epay gateway with a fee of 1.5 % for Alipay and WeChat Pay, and one without for WeChat Pay. */
const PLANS: PlanList = {
  ...PLAN_LIST,
  pay_methods: ['card'],
  pay_options: [
    own('card'),
    { pay_method: 'alipay', gateway_id: EPAY, name: 'Alipay (Epay)', fee_bps: 150 },
    { pay_method: 'wechat_pay', gateway_id: EPAY, name: 'Alipay (Epay)', fee_bps: 150 },
    { pay_method: 'wechat_pay', gateway_id: CHEAP, name: 'WeChat direct', fee_bps: 0 },
  ],
};

const CHECKOUT = 'http://epay.example/submit.php?out_trade_no=O7';

async function openBuyPage(plans: PlanList = PLANS) {
  signIn(userInfo());
  answer('/web/plan/list', ok(plans));
  answer('/web/user/info', ok(userInfo()));
  answer(
    '/web/order/create',
    ok({ order_id: 'O7', amount: 7613, fee: 113, latest_pay_time: NOW + 1800, checkout_url: CHECKOUT }),
  );
  answer('/web/order/query', ok(order({ order_id: 'O7', amount: 7613, checkout_url: CHECKOUT })));
  await renderBuyPage();
  await screen.findByRole('radio', { name: /Monthly/ });
  const connections = screen.getByLabelText<HTMLInputElement>('Simultaneous connections');
  await waitFor(() => expect(connections.disabled).toBe(false));
  fireEvent.change(connections, { target: { value: '3' } });
  fireEvent.blur(connections);
}

const methods = () => screen.getByRole('radiogroup', { name: 'Payment method' });
const method = (name: RegExp) => within(methods()).getByRole<HTMLInputElement>('radio', { name });
const total = () => screen.getByTestId('buy-total').textContent;
const buy = () => fireEvent.click(screen.getAllByRole('button', { name: /Buy now/ })[0] as HTMLElement);

withBuyPageClock(NOW);

describe('the buy page’s gateways', () => {
  it('lists each method once by name and mark, in the buy page’s order, with the gateway that serves it', async () => {
    await openBuyPage();
    const names = within(methods())
      .getAllByRole<HTMLInputElement>('radio')
      .map((choice) => choice.closest('label')?.querySelector('.pay-method-name')?.textContent);
    expect(names).toEqual(['Alipay', 'WeChat Pay', 'Card', 'App Store subscription']);
    // The site's own provider comes first in the reply: card is chosen until the buyer picks another.
    expect(method(/Card/).checked).toBe(true);
    fireEvent.click(method(/Alipay/));
    expect(method(/Alipay/).closest('label')?.textContent).toContain('Alipay (Epay) · Fee 1.5%');
    // One gateway serves Alipay: there is nothing to pick between.
    expect(screen.queryByRole('radiogroup', { name: 'Pay through' })).toBeNull();
  });

  it('shows the fee before paying, to the fen the server charges, and leaves it out where there is none', async () => {
    await openBuyPage();
    await waitFor(() => expect(total()).toBe('¥75.00'));
    expect(screen.queryByTestId('buy-fee')).toBeNull();
    fireEvent.click(method(/Alipay/));
    // 1.5 % of ¥75.00 is 112.5 fen, rounded half up.
    await waitFor(() => expect(screen.getByTestId('buy-fee').textContent).toBe('+ ¥1.13 fee'));
    expect(total()).toBe('¥76.13');
  });

  it('lets the buyer pick between the gateways that serve a method, the first by position chosen', async () => {
    await openBuyPage();
    fireEvent.click(method(/WeChat Pay/));
    const through = screen.getByRole('radiogroup', { name: 'Pay through' });
    const choices = within(through).getAllByRole<HTMLInputElement>('radio');
    expect(choices.map((choice) => choice.closest('label')?.textContent)).toEqual([
      'Alipay (Epay) · Fee 1.5%',
      'WeChat direct',
    ]);
    expect(choices.map((choice) => choice.checked)).toEqual([true, false]);
    fireEvent.click(choices[1] as HTMLElement);
    await waitFor(() => expect(screen.queryByTestId('buy-fee')).toBeNull());
    expect(total()).toBe('¥75.00');
    buy();
    await waitFor(() => expect(requestsTo('/web/order/create')).toHaveLength(1));
    expect(await sentTo('/web/order/create')).toEqual([
      { period: 'month', connections: 3, pay_method: 'wechat_pay', gateway_id: CHEAP },
    ]);
  });

  it('on a computer shows the checkout as a QR code with the amount and the time left to the deadline', async () => {
    await openBuyPage();
    fireEvent.click(method(/Alipay/));
    buy();
    const dialog = await screen.findByRole('dialog', { name: 'Scan to pay' });
    expect(openPage).not.toHaveBeenCalled();
    expect(await sentTo('/web/order/create')).toEqual([
      { period: 'month', connections: 3, pay_method: 'alipay', gateway_id: EPAY },
    ]);
    expect(within(dialog).getByRole('img', { name: 'QR code of the payment page' })).toBeTruthy();
    expect(within(dialog).getByTestId('scan-amount').textContent).toBe('¥76.13 (including a ¥1.13 fee)');
    expect(within(dialog).getByRole('timer').textContent).toBe('30:00');
    expect(dialog.textContent).toContain(`Pay by${formatDateTime(NOW + 1800)}`);
    // The order is asked about meanwhile.
    await waitFor(() => expect(requestsTo('/web/order/query').length).toBeGreaterThan(0));

    vi.setSystemTime((NOW + 65) * 1000);
    await waitFor(() => expect(within(dialog).getByRole('timer').textContent).toBe('28:55'), {
      timeout: 2500,
    });
    vi.setSystemTime((NOW + 1800) * 1000);
    await waitFor(() => expect(dialog.textContent).toContain('This order has expired'), { timeout: 2500 });
    expect(within(dialog).queryByRole('img', { name: 'QR code of the payment page' })).toBeNull();
    expect(within(dialog).getByRole('timer').textContent).toBe('00:00');
  });

  it('hands over to the payment inquiry once the buyer says they have paid', async () => {
    await openBuyPage();
    fireEvent.click(method(/Alipay/));
    buy();
    const dialog = await screen.findByRole('dialog', { name: 'Scan to pay' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'I have paid' }));
    expect(await screen.findByRole('dialog', { name: 'Payment inquiry' })).toBeTruthy();
  });

  it('hands over to the payment inquiry by itself once the order reads paid', async () => {
    await openBuyPage();
    answer('/web/order/query', ok(order({ order_id: 'O7', amount: 7613, status: 'paid', pay_time: NOW })));
    fireEvent.click(method(/Alipay/));
    buy();
    const inquiry = await screen.findByRole('dialog', { name: 'Payment inquiry' });
    await waitFor(() => expect(inquiry.textContent).toContain('Payment received'));
    expect(screen.queryByRole('dialog', { name: 'Scan to pay' })).toBeNull();
  });

  it('on a phone goes to the gateway’s page', async () => {
    setViewportWidth(PHONE_WIDTH);
    await openBuyPage();
    fireEvent.click(method(/Alipay/));
    buy();
    await waitFor(() => expect(openPage).toHaveBeenCalledWith(CHECKOUT));
    expect(screen.queryByRole('dialog', { name: 'Scan to pay' })).toBeNull();
  });

  it('counts down in minutes and seconds, with hours past the hour', () => {
    expect(formatCountdown(0)).toBe('00:00');
    expect(formatCountdown(-5)).toBe('00:00');
    expect(formatCountdown(59)).toBe('00:59');
    expect(formatCountdown(3599)).toBe('59:59');
    expect(formatCountdown(3661)).toBe('1:01:01');
  });
});
