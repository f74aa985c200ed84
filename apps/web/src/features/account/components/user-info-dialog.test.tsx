import type { ReactNode } from 'react';
import { act, render, screen, within } from '@testing-library/react';
import { formatDateTime } from '@skyway/shared/dates';
import { describe, expect, it, vi } from 'vitest';
import { startSession } from '../../../lib/session.ts';
import { type AppStoreState, UserInfoDialog, type PendingConnections } from './user-info-dialog.tsx';

const USER = {
  account: 'a@example.com',
  expire_user: 0,
  subscribe_type: 1,
  invite_code: 'ME',
  connections: 1,
} as const;

async function renderDialog(
  pending: PendingConnections | null = null,
  appStore: AppStoreState | null = null,
  trial: ReactNode = null,
) {
  await act(async () => {
    render(<UserInfoDialog open onClose={vi.fn()} trial={trial} pending={pending} appStore={appStore} />);
  });
  return screen.findByRole('dialog');
}

describe('UserInfoDialog', () => {
  it('shows "none" and "not purchased" for a user who never bought, both payment methods and the trial\'s state', async () => {
    startSession({ token: 'T', ...USER });
    const dialog = await renderDialog(null, null, <p>trial state</p>);
    expect(within(dialog).getByText('a@example.com')).toBeTruthy();
    expect(within(dialog).getByText('No active plan')).toBeTruthy();
    expect(within(dialog).getByText('Not purchased')).toBeTruthy();
    // The card provider takes Alipay and WeChat Pay too: named neutrally, not "card".
    expect(within(dialog).getByText('Online payment')).toBeTruthy();
    expect(within(dialog).getByText('App Store subscription')).toBeTruthy();
    // The app layer composes the trial's state (console-side-panel.test.tsx covers its three states).
    expect(dialog.textContent).toMatch(/App Store subscription.*trial state/);
  });

  it('shows the expiry as YYYY-MM-DD HH:mm:ss and the current method', async () => {
    startSession({ token: 'T', ...USER, expire_user: 1_800_000_000, subscribe_type: 2 });
    const dialog = await renderDialog();
    expect(within(dialog).getByText(formatDateTime(1_800_000_000))).toBeTruthy();
    expect(formatDateTime(1_800_000_000)).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(within(dialog).queryByText('Not purchased')).toBeNull();
    expect(within(dialog).getByText('Current')).toBeTruthy();
  });

  it('shows the connections, and a downgrade bought for later with the time it applies', async () => {
    startSession({ token: 'T', ...USER, expire_user: 1_800_000_000, subscribe_type: 2, connections: 3 });
    const dialog = await renderDialog({ connections: 1, from: 1_800_000_000 });
    expect(dialog.textContent).toContain('Connections3');
    expect(dialog.textContent).toContain(`Connections from ${formatDateTime(1_800_000_000)}1`);
  });

  it('shows no connections while the user never had access, and no pending line without one', async () => {
    startSession({ token: 'T', ...USER });
    const dialog = await renderDialog();
    expect(dialog.textContent).not.toContain('Connections');
  });

  describe('for an app-store subscriber', () => {
    const ends = () => Math.floor(Date.now() / 1000) + 20 * 86_400;
    const statusOf = (dialog: HTMLElement) =>
      within(dialog).getByRole('region', { name: 'Subscribed through the app store' });

    it('shows auto-renew on, the renewal date and how to cancel', async () => {
      const expiry = ends();
      // Card time after the store's period: the renewal date is the store's, not the account's expiry.
      startSession({
        token: 'T',
        ...USER,
        expire_user: expiry + 31 * 86_400,
        subscribe_type: 3,
        connections: 2,
      });
      const dialog = await renderDialog(null, { autoRenew: true, periodEnd: expiry });
      const status = statusOf(dialog);
      const date = formatDateTime(expiry);
      expect(status.textContent).toContain(`Auto-renew: on — renews on ${date}`);
      expect(status.textContent).toContain(
        `To cancel, turn off auto-renew in your device's subscription settings (App Store) at least 24 hours before ${date}.`,
      );
      // The dialog is not the place to buy: no card note.
      expect(status.textContent).not.toContain('card');
    });

    it('shows auto-renew off and the date access ends, without a cancel instruction', async () => {
      const expiry = ends();
      startSession({ token: 'T', ...USER, expire_user: expiry, subscribe_type: 3 });
      const dialog = await renderDialog(null, { autoRenew: false, periodEnd: expiry });
      const status = statusOf(dialog);
      expect(status.textContent).toContain(`Auto-renew: off — access ends on ${formatDateTime(expiry)}`);
      expect(status.textContent).not.toContain('To cancel');
    });

    it('waits for the user info before saying anything about renewal', async () => {
      startSession({ token: 'T', ...USER, expire_user: ends(), subscribe_type: 3 });
      const dialog = await renderDialog(null, null);
      expect(dialog.textContent).not.toContain('Auto-renew');
    });

    it.each([1, 2] as const)('shows none of it for subscription type %i', async (type) => {
      startSession({ token: 'T', ...USER, expire_user: ends(), subscribe_type: type });
      const dialog = await renderDialog(null, { autoRenew: true, periodEnd: ends() });
      expect(within(dialog).queryByRole('region', { name: 'Subscribed through the app store' })).toBeNull();
      expect(dialog.textContent).not.toContain('Auto-renew');
      expect(dialog.textContent).not.toContain('To cancel');
    });
  });
});
