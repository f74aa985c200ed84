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
  provider_payment_id: 'pi_1',
  amount: 2990,
  currency: 'cny',
  outcome: 'credited',
  created_at: '2026-03-01T08:00:00.000Z',
  settled_at: null,
  settlement: null,
  refund: null,
};

function answerPayments() {
  answer('GET', '/payments', ok({ total: 1, page: 1, size: 20, items: [payment], total_capped: false }));
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
});
