import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { answer, ok, requestsTo } from '../../../test/network.ts';
import { renderScreen } from '../../../test/render.tsx';
import { signedInAs } from '../../../test/session.ts';
import type { Payment } from '../api/list-payments.ts';
import { PaymentsPage } from './payments-page.tsx';

const payment: Payment = {
  id: '00000000-0000-4000-8000-00000000000a',
  order_id: 'ORDER1',
  user_id: '00000000-0000-4000-8000-00000000000b',
  email: 'buyer@example.com',
  provider: 'stripe',
  gateway_names: null,
  provider_payment_id: 'pi_1',
  amount: 2990,
  currency: 'cny',
  outcome: 'credited',
  created_at: '2026-03-01T08:00:00.000Z',
  settled_at: null,
  settlement: null,
  refund: null,
};

function answerPayments(items: Payment[] = [payment]) {
  answer('GET', '/payments', ok({ total: items.length, page: 1, size: 20, items, total_capped: false }));
}

/** A payment through one of the gateways (`<kind>:<gateway id>`), by another buyer. */
const throughGateway = (kind: string, n: number): Payment => ({
  ...payment,
  id: `00000000-0000-4000-8000-00000000010${n}`,
  email: `${kind}@example.com`,
  provider: `${kind}:00000000-0000-4000-8000-0000000000e${n}`,
  gateway_names: { en: `${kind} gateway`, zh: `${kind} 网关`, tw: `${kind} 閘道` },
});

/** Refunds the payment of the buyer's row with the dialog's reason, keeping the order's time. */
async function refundKeepingTime(email: string, button: string, hint: RegExp) {
  const row = await rowOf(email);
  fireEvent.click(within(row).getByRole('button', { name: button }));
  expect(await screen.findByText(hint)).toBeTruthy();
  fireEvent.click(screen.getByLabelText('Let the customer keep it'));
  fireEvent.change(screen.getByLabelText('Why (kept in the audit log)'), {
    target: { value: 'Asked for by the buyer' },
  });
  fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
  expect(await screen.findByText('Done')).toBeTruthy();
}

const rowOf = async (text: string) => (await screen.findByText(text)).closest('tr') as HTMLElement;

describe('the payments list', () => {
  it('offers a viewer no refund', async () => {
    signedInAs('viewer');
    answerPayments();
    await renderScreen(<PaymentsPage />);
    const row = await rowOf('buyer@example.com');
    expect(within(row).getByText('¥29.90')).toBeTruthy();
    expect(within(row).queryByRole('button', { name: 'Refund' })).toBeNull();
  });

  it("names a gateway's payments as its buyers see it, and the site's own provider by its name", async () => {
    signedInAs('viewer');
    answerPayments([payment, throughGateway('epay', 1)]);
    await renderScreen(<PaymentsPage />);
    expect(within(await rowOf('epay@example.com')).getByText('epay gateway')).toBeTruthy();
    expect(within(await rowOf('buyer@example.com')).getByText('stripe')).toBeTruthy();
    expect(screen.queryByText(/^epay:/)).toBeNull();
  });

  it('refunds for finance with the reason and what becomes of the time', async () => {
    signedInAs('finance');
    answerPayments();
    answer('POST', `/payments/${payment.id}/refund`, ok({}));
    await renderScreen(<PaymentsPage />);
    const row = await rowOf('buyer@example.com');
    fireEvent.click(within(row).getByRole('button', { name: 'Refund' }));
    expect(
      await screen.findByText('The whole payment, 29.90 cny, goes back through its provider.'),
    ).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Why (kept in the audit log)'), {
      target: { value: 'Asked for by the buyer' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Done')).toBeTruthy();
    const sent = await requestsTo('POST', `/payments/${payment.id}/refund`);
    expect(sent.map((call) => call.body)).toEqual([{ reason: 'Asked for by the buyer', time: 'take_back' }]);
  });

  it('records an Epay or USDT payment as refunded outside, saying the money goes back in the gateway’s panel', async () => {
    signedInAs('finance');
    const usdt = throughGateway('epusdt', 1);
    answerPayments([usdt, throughGateway('epay', 2)]);
    answer('POST', '/payments/:id/refund-outside', ok({}));
    await renderScreen(<PaymentsPage />);
    const epayRow = await rowOf('epay@example.com');
    expect(within(epayRow).getByRole('button', { name: 'Record refund made outside' })).toBeTruthy();
    expect(within(epayRow).queryByRole('button', { name: 'Refund' })).toBeNull();
    await refundKeepingTime(
      'epusdt@example.com',
      'Record refund made outside',
      /give the whole payment, 29.90 cny, back outside: in the gateway's own merchant panel/,
    );
    const sent = await requestsTo('POST', `/payments/${usdt.id}/refund-outside`);
    expect(sent.map((call) => call.body)).toEqual([{ reason: 'Asked for by the buyer', time: 'keep' }]);
    expect(await requestsTo('POST', `/payments/${usdt.id}/refund`)).toEqual([]);
  });

  it('refunds an Alipay face-to-face payment through Alipay', async () => {
    signedInAs('finance');
    const alipay = throughGateway('alipay_f2f', 3);
    answerPayments([alipay]);
    answer('POST', '/payments/:id/refund', ok({}));
    await renderScreen(<PaymentsPage />);
    await refundKeepingTime('alipay_f2f@example.com', 'Refund', /goes back through its provider/);
    const sent = await requestsTo('POST', `/payments/${alipay.id}/refund`);
    expect(sent.map((call) => call.body)).toEqual([{ reason: 'Asked for by the buyer', time: 'keep' }]);
  });
});
