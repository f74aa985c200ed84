import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { formatDateTime } from '@skyway/shared/dates';
import { describe, expect, it, vi } from 'vitest';
import { startSession } from '../../../lib/session.ts';
import { UserInfoDialog, type PendingConnections } from './user-info-dialog.tsx';

const USER = {
  account: 'a@example.com',
  expire_user: 0,
  subscribe_type: 1,
  invite_code: 'ME',
  connections: 1,
} as const;

async function renderDialog(onClaimTrial = vi.fn(), pending: PendingConnections | null = null) {
  await act(async () => {
    render(<UserInfoDialog open onClose={vi.fn()} onClaimTrial={onClaimTrial} pending={pending} />);
  });
  return screen.findByRole('dialog', {}, { timeout: 5000 });
}

describe('UserInfoDialog', () => {
  it('shows "none" and "not purchased" for a user who never bought, both payment methods and the trial button', async () => {
    startSession({ token: 'T', ...USER });
    const onClaimTrial = vi.fn();
    const dialog = await renderDialog(onClaimTrial);
    expect(within(dialog).getByText('a@example.com')).toBeTruthy();
    expect(within(dialog).getByText('No active plan')).toBeTruthy();
    expect(within(dialog).getByText('Not purchased')).toBeTruthy();
    expect(within(dialog).getByText('Card payment')).toBeTruthy();
    expect(within(dialog).getByText('App Store subscription')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: /Claim free trial/ }));
    expect(onClaimTrial).toHaveBeenCalledOnce();
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
    const dialog = await renderDialog(vi.fn(), { connections: 1, from: 1_800_000_000 });
    expect(dialog.textContent).toContain('Connections3');
    expect(dialog.textContent).toContain(`Connections from ${formatDateTime(1_800_000_000)}1`);
  });

  it('shows no connections while the user never had access, and no pending line without one', async () => {
    startSession({ token: 'T', ...USER });
    const dialog = await renderDialog();
    expect(dialog.textContent).not.toContain('Connections');
  });
});
