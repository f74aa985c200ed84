import { fireEvent, screen, waitFor } from '@testing-library/react';
import { formatDateTime } from '@skyway/shared/dates';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { getSession } from '../../../lib/session.ts';
import { answer, ok, refused, requestsTo, sentTo } from '../../../test/network.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { signIn } from '../../../test/user-info.ts';

vi.mock('../../../lib/toast.ts', () => import('../../../test/fake-toast.ts'));

const { showSuccess, showError } = await import('../../../test/fake-toast.ts');
const { RedeemButton } = await import('./redeem-button.tsx');

const INVALID = 'This code is not valid or has already been used';

async function openDialog() {
  await renderWithProviders([{ path: '/order', element: <RedeemButton /> }], { url: '/order' });
  fireEvent.click(await screen.findByRole('button', { name: /Redeem a code/ }));
  return screen.findByRole('dialog');
}

const typeCode = (code: string) =>
  fireEvent.change(screen.getByLabelText('Redeem code'), { target: { value: code } });

beforeEach(() => {
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  signIn();
});

describe('RedeemDialog', () => {
  it('redeems the code as typed, tells the new end of access, stores it and closes', async () => {
    answer('/web/redeem', ok({ order_id: 'SW-R1', expire_user: 1_800_000_000 }, 'Code redeemed'));
    const dialog = await openDialog();
    expect(dialog.textContent).toContain('Enter the redeem code you bought');
    typeCode('abcd-efgh jkmn-pqrs-tuvw');
    fireEvent.click(screen.getByRole('button', { name: 'Redeem' }));
    await waitFor(() =>
      expect(showSuccess).toHaveBeenCalledWith(
        `Code redeemed. Your access now ends ${formatDateTime(1_800_000_000)}.`,
        1.5,
      ),
    );
    expect(await sentTo('/web/redeem')).toEqual([{ code: 'abcd-efgh jkmn-pqrs-tuvw' }]);
    expect(getSession().user?.expire_user).toBe(1_800_000_000);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('asks for a code before sending anything', async () => {
    await openDialog();
    fireEvent.click(screen.getByRole('button', { name: 'Redeem' }));
    expect(await screen.findByText('Please enter the code')).toBeTruthy();
    expect(requestsTo('/web/redeem')).toHaveLength(0);
  });

  it("shows the server's refusal in the dialog, not as a toast, and keeps it open for another try", async () => {
    answer('/web/redeem', refused(400, INVALID, { reason: 'redeem_code_invalid', field: 'code' }));
    await openDialog();
    typeCode('WRONG-CODE');
    fireEvent.click(screen.getByRole('button', { name: 'Redeem' }));
    expect((await screen.findByRole('alert')).textContent).toContain(INVALID);
    expect(showError).not.toHaveBeenCalled();
    expect(showSuccess).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog')).toBeTruthy();
    // Typing again clears the refusal.
    typeCode('ANOTHER');
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
  });

  it('shows the lock after too many wrong codes', async () => {
    const locked =
      'Too many wrong codes; redeeming is locked for this account. Please try again in 3600 seconds';
    answer('/web/redeem', refused(429, locked, { reason: 'redeem_locked', retry_after: 3600 }));
    await openDialog();
    typeCode('ABCD');
    fireEvent.click(screen.getByRole('button', { name: 'Redeem' }));
    expect((await screen.findByRole('alert')).textContent).toContain(locked);
  });

  it('"Cancel" closes without redeeming', async () => {
    await openDialog();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(requestsTo('/web/redeem')).toHaveLength(0);
  });
});
