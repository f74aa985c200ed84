import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { answer, ok, refused, requestsTo } from '../../../test/network.ts';
import { renderScreen } from '../../../test/render.tsx';
import { signedInAs } from '../../../test/session.ts';
import type { Coupon } from '../api/coupons.ts';

vi.mock('../../../lib/download.ts', () => ({ saveFile: vi.fn() }));

const { saveFile } = await import('../../../lib/download.ts');
const { CouponsPage } = await import('./coupons-page.tsx');

const spring: Coupon = {
  id: '00000000-0000-4000-8000-0000000000c1',
  code: 'SPRING20',
  kind: 'percent',
  value: 20,
  min_amount: 5000,
  periods: ['year'],
  connections: [],
  first_order_only: true,
  valid_from: null,
  valid_to: '2026-06-01T00:00:00.000Z',
  max_uses: 100,
  max_uses_per_user: 1,
  status: 'active',
  uses_held: 2,
  uses_paid: 7,
  discount_total: 36_120,
  created_at: '2026-03-01T08:00:00.000Z',
  updated_at: '2026-03-01T08:00:00.000Z',
};

const fixed: Coupon = {
  ...spring,
  id: '00000000-0000-4000-8000-0000000000c2',
  code: 'TENOFF',
  kind: 'fixed',
  value: 1000,
  min_amount: 0,
  periods: [],
  first_order_only: false,
  status: 'paused',
  uses_held: 0,
  uses_paid: 0,
  discount_total: 0,
};

const answerCoupons = () => answer('GET', '/coupons', ok({ items: [spring, fixed], more: false }));

const rowOf = async (code: string) => (await screen.findByText(code)).closest('tr') as HTMLElement;
const save = () => fireEvent.click(screen.getByRole('button', { name: 'Save' }));

describe('the coupons page', () => {
  it('is not for support', async () => {
    signedInAs('support');
    await renderScreen(<CouponsPage />);
    expect(await screen.findByText('Your role does not allow this page')).toBeTruthy();
  });

  it('lists each coupon with its terms, scope, uses and the revenue it took off', async () => {
    signedInAs('finance');
    answerCoupons();
    await renderScreen(<CouponsPage />);
    const row = await rowOf('SPRING20');
    expect(within(row).getByText('20% off')).toBeTruthy();
    expect(within(row).getByText('Yearly · from ¥50.00 · First order only')).toBeTruthy();
    expect(within(row).getByText('7 paid · 2 held')).toBeTruthy();
    expect(within(row).getByText('¥361.20')).toBeTruthy();
    expect(within(row).getByText('100 / 1')).toBeTruthy();
    const other = await rowOf('TENOFF');
    expect(within(other).getByText('¥10.00 off')).toBeTruthy();
    expect(within(other).getByText('Paused')).toBeTruthy();
    expect(within(other).getByRole('button', { name: /Resume/ })).toBeTruthy();
  });

  it('asks the server for the filtered and sorted list', async () => {
    signedInAs('admin');
    answerCoupons();
    await renderScreen(<CouponsPage />);
    await rowOf('SPRING20');
    fireEvent.change(screen.getByLabelText('Search code'), { target: { value: 'spr' } });
    fireEvent.keyDown(screen.getByLabelText('Search code'), { key: 'Enter', code: 'Enter', keyCode: 13 });
    fireEvent.click(screen.getByRole('columnheader', { name: /Revenue taken off/ }));
    await waitFor(async () => {
      const urls = (await requestsTo('GET', '/coupons')).map((request) => request.url.search);
      expect(urls.at(-1)).toContain('sort=discount_total');
      expect(urls.at(-1)).toContain('code=spr');
    });
  });

  it('makes a coupon with a typed code, money in fen', async () => {
    signedInAs('owner');
    answerCoupons();
    answer('POST', '/coupons', ok(fixed));
    await renderScreen(<CouponsPage />);
    fireEvent.click(await screen.findByRole('button', { name: /Add coupon/ }));
    const form = within(await screen.findByTestId('coupon-form'));
    fireEvent.change(form.getByLabelText('Code'), { target: { value: 'summer-5' } });
    fireEvent.click(form.getByRole('radio', { name: 'Amount off' }));
    fireEvent.change(await form.findByRole('spinbutton', { name: 'Amount off' }), {
      target: { value: '5.5' },
    });
    fireEvent.change(form.getByLabelText('Uses in all'), { target: { value: '50' } });
    save();
    expect(await screen.findByText('Done')).toBeTruthy();
    const [sent] = await requestsTo('POST', '/coupons');
    expect(sent?.body).toEqual({
      code: 'summer-5',
      kind: 'fixed',
      value: 550,
      min_amount: 0,
      periods: [],
      connections: [],
      first_order_only: false,
      valid_from: null,
      valid_to: null,
      max_uses: 50,
      max_uses_per_user: null,
    });
  });

  it('shows the server’s refusal of a taken code under the code field', async () => {
    signedInAs('owner');
    answerCoupons();
    answer(
      'POST',
      '/coupons',
      refused(409, 'Another coupon already has this code', { reason: 'coupon_code_taken', field: 'code' }),
    );
    await renderScreen(<CouponsPage />);
    fireEvent.click(await screen.findByRole('button', { name: /Add coupon/ }));
    const form = within(await screen.findByTestId('coupon-form'));
    fireEvent.change(form.getByLabelText('Code'), { target: { value: 'SPRING20' } });
    save();
    const field = (await screen.findByText('Another coupon already has this code')).closest('.ant-form-item');
    expect(field?.textContent).toContain('Code');
  });

  it('pauses a coupon, and ends one after confirmation', async () => {
    signedInAs('finance');
    answerCoupons();
    answer('POST', '/coupons/:id/status', ok(spring));
    await renderScreen(<CouponsPage />);
    const row = await rowOf('SPRING20');
    fireEvent.click(within(row).getByRole('button', { name: /Pause/ }));
    await waitFor(async () =>
      expect(await requestsTo('POST', `/coupons/${spring.id}/status`)).toHaveLength(1),
    );
    fireEvent.click(within(row).getByRole('button', { name: /End/ }));
    expect((await screen.findAllByText('End coupon SPRING20?')).length).toBeGreaterThan(0);
    fireEvent.click(screen.getAllByRole('button', { name: 'End' }).at(-1) as HTMLElement);
    await waitFor(async () => {
      const sent = await requestsTo('POST', `/coupons/${spring.id}/status`);
      expect(sent.map((request) => request.body)).toEqual([{ action: 'pause' }, { action: 'end' }]);
    });
  });

  it('exports the list as shown as CSV', async () => {
    signedInAs('owner');
    answerCoupons();
    await renderScreen(<CouponsPage />);
    await rowOf('SPRING20');
    fireEvent.click(screen.getByRole('button', { name: /Export CSV/ }));
    expect(saveFile).toHaveBeenCalledTimes(1);
    const [name, extension, blob] = vi.mocked(saveFile).mock.calls[0] ?? [];
    expect([name, extension]).toEqual(['coupons', 'csv']);
    const text = await (blob as Blob).text();
    expect(text).toContain('Code,Discount,For');
    expect(text).toContain('SPRING20,20% off,Yearly · from ¥50.00 · First order only');
    expect(text).toContain(',7,2,361.20,Active,');
  });
});
