import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { answer, ok, refused, requestsTo } from '../../../test/network.ts';
import { renderScreen } from '../../../test/render.tsx';
import { signedInAs } from '../../../test/session.ts';
import type { RedeemBatch } from '../api/redeem-batches.ts';
import { RedeemCodesPage } from './redeem-codes-page.tsx';

const shop: RedeemBatch = {
  id: '00000000-0000-4000-8000-0000000000b1',
  name: 'Taobao November',
  note: 'shop A',
  grant: { kind: 'plan', period: 'month', connections: 2 },
  count: 100,
  redeemed: 12,
  revoked: 3,
  created_by: 'owner@example.com',
  created_at: '2026-03-01T08:00:00.000Z',
  revoked_at: null,
};
const old: RedeemBatch = {
  ...shop,
  id: '00000000-0000-4000-8000-0000000000b2',
  name: 'Old days batch',
  grant: { kind: 'days', days: 30 },
  count: 10,
  redeemed: 4,
  revoked: 6,
  revoked_at: '2026-03-05T08:00:00.000Z',
};

const page = (items: RedeemBatch[]) => ok({ items, total: items.length });
const rowOf = async (name: string) => (await screen.findByText(name)).closest('tr') as HTMLElement;
const lastQuery = async () => {
  const calls = await requestsTo('GET', '/redeem-batches');
  return calls.at(-1)?.url.searchParams;
};

/** What the page saved as files: their blobs' text, in order. */
function savedFiles() {
  const blobs: Blob[] = [];
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    blobs.push(blob as Blob);
    return 'blob:saved';
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
  return () => Promise.all(blobs.map((blob) => blob.text()));
}

beforeEach(() => {
  vi.restoreAllMocks();
});

describe('the redeem codes page', () => {
  it('is not for support', async () => {
    signedInAs('support');
    await renderScreen(<RedeemCodesPage />);
    expect(await screen.findByText('Your role does not allow this page')).toBeTruthy();
  });

  it('lists batches with their grant, uses and state, filtered and sorted on the server', async () => {
    signedInAs('finance');
    answer('GET', '/redeem-batches', page([shop, old]));
    await renderScreen(<RedeemCodesPage />);
    const row = within(await rowOf('Taobao November'));
    expect(row.getByText('Monthly × 2 connections')).toBeTruthy();
    expect(row.getByText('12')).toBeTruthy();
    expect(row.getByText('Active')).toBeTruthy();
    const revoked = within(await rowOf('Old days batch'));
    expect(revoked.getByText('30 days')).toBeTruthy();
    expect(revoked.getByText('Revoked')).toBeTruthy();
    expect(revoked.queryByRole('button', { name: 'Revoke' })).toBeNull();
    expect((await lastQuery())?.get('sort')).toBe('created_at');

    fireEvent.change(screen.getByPlaceholderText('Batch name'), { target: { value: ' taobao ' } });
    fireEvent.keyDown(screen.getByPlaceholderText('Batch name'), {
      key: 'Enter',
      code: 'Enter',
      keyCode: 13,
    });
    await waitFor(async () => expect((await lastQuery())?.get('q')).toBe('taobao'));

    fireEvent.click(screen.getByRole('columnheader', { name: /Redeemed/ }));
    await waitFor(async () => expect((await lastQuery())?.get('sort')).toBe('redeemed'));
  });

  it('generates a batch and saves its CSV at once, with a second save while the dialog is open', async () => {
    signedInAs('owner');
    const files = savedFiles();
    const csv = 'code\r\nABCD-EFGH-JKMN-PQRS-TUVW\r\nBCDE-FGHJ-KMNP-QRST-UVWX\r\n';
    answer('GET', '/redeem-batches', page([shop]));
    answer(
      'POST',
      '/redeem-batches',
      ok({ batch: { ...shop, count: 2, grant: { kind: 'days', days: 7 } }, csv }),
    );
    await renderScreen(<RedeemCodesPage />);
    fireEvent.click(await screen.findByRole('button', { name: /New batch/ }));
    const dialog = within(await screen.findByRole('dialog'));
    fireEvent.change(dialog.getByLabelText('Name'), { target: { value: 'Shop B' } });
    fireEvent.change(dialog.getByLabelText('Codes'), { target: { value: '2' } });
    fireEvent.click(dialog.getByLabelText("Days at the account's connections"));
    fireEvent.change(await dialog.findByLabelText('Days'), { target: { value: '7' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Generate' }));
    expect(await screen.findByText('2 codes generated')).toBeTruthy();
    const sent = await requestsTo('POST', '/redeem-batches');
    expect(sent.map((call) => call.body)).toEqual([
      { name: 'Shop B', note: '', count: 2, grant: { kind: 'days', days: 7 } },
    ]);
    expect(await files()).toEqual([csv]);
    fireEvent.click(screen.getByRole('button', { name: /Save the CSV again/ }));
    expect(await files()).toEqual([csv, csv]);
    fireEvent.click(screen.getAllByRole('button', { name: 'Close' }).at(-1) as HTMLElement);
    await waitFor(() => expect(screen.queryByText('2 codes generated')).toBeNull());
  });

  it('revokes a batch after confirmation', async () => {
    signedInAs('admin');
    answer('GET', '/redeem-batches', page([shop]));
    answer(
      'POST',
      `/redeem-batches/${shop.id}/revoke`,
      ok({ ...shop, revoked_at: '2026-03-06T08:00:00.000Z' }),
    );
    await renderScreen(<RedeemCodesPage />);
    fireEvent.click(within(await rowOf('Taobao November')).getByRole('button', { name: 'Revoke' }));
    expect(await screen.findAllByText('Revoke the batch Taobao November?')).not.toHaveLength(0);
    expect(screen.getAllByText(/Its 85 unredeemed codes will be refused/)).not.toHaveLength(0);
    const buttons = screen.getAllByRole('button', { name: 'Revoke' });
    fireEvent.click(buttons.at(-1) as HTMLElement);
    expect(await screen.findByText('Done')).toBeTruthy();
    expect(await requestsTo('POST', `/redeem-batches/${shop.id}/revoke`)).toHaveLength(1);
  });

  it("revokes a single code as typed, and shows the server's refusal", async () => {
    signedInAs('owner');
    answer('GET', '/redeem-batches', page([shop]));
    answer(
      'POST',
      '/redeem-codes/revoke',
      refused(409, 'This code has already been redeemed', { reason: 'redeem_code_used' }),
    );
    await renderScreen(<RedeemCodesPage />);
    fireEvent.click(await screen.findByRole('button', { name: /Revoke a code/ }));
    const dialog = within(await screen.findByRole('dialog'));
    fireEvent.change(dialog.getByLabelText('Code'), { target: { value: 'abcd efgh' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByText('This code has already been redeemed')).toBeTruthy();
    expect((await requestsTo('POST', '/redeem-codes/revoke')).map((call) => call.body)).toEqual([
      { code: 'abcd efgh' },
    ]);
  });

  it("shows a batch's redemptions: who, when, and the order record", async () => {
    signedInAs('owner');
    answer('GET', '/redeem-batches', page([shop]));
    answer(
      'GET',
      `/redeem-batches/${shop.id}/redemptions`,
      ok({
        items: [
          {
            id: '2026030108000012345678',
            user_id: '00000000-0000-4000-8000-0000000000u1'.replace('u', 'a'),
            email: 'buyer@example.com',
            redeemed_at: '2026-03-02T08:00:00.000Z',
          },
        ],
        total: 1,
      }),
    );
    await renderScreen(<RedeemCodesPage />);
    fireEvent.click(within(await rowOf('Taobao November')).getByRole('button', { name: 'Redemptions' }));
    const table = within(await screen.findByTestId('redemptions'));
    expect(await table.findByText('buyer@example.com')).toBeTruthy();
    expect(table.getByText('2026030108000012345678')).toBeTruthy();
  });
});
