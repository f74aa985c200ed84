import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ReactElement } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { answer, ok, requestsTo, sentTo } from '../../../test/network.ts';
import { renderWithProviders } from '../../../test/render.tsx';

vi.mock('../../../lib/toast.ts', () => import('../../../test/fake-toast.ts'));

const { showSuccess } = await import('../../../test/fake-toast.ts');
const { ChangePasswordDialog } = await import('./change-password-dialog.tsx');
const { ChangeEmailDialog } = await import('./change-email-dialog.tsx');

async function renderDialog(dialog: ReactElement) {
  await renderWithProviders(dialog);
  return screen.findByRole('dialog');
}

function leave(dialog: HTMLElement, label: string, value: string) {
  const input = within(dialog).getByLabelText(label, { selector: 'input' });
  fireEvent.change(input, { target: { value } });
  fireEvent.blur(input);
}

describe('ChangePasswordDialog', () => {
  it('checks old and new password on blur and on submit, then sends old_pwd and new_pwd', async () => {
    answer('/web/login/pass', ok({}, 'Password changed'));
    const onClose = vi.fn();
    const dialog = await renderDialog(<ChangePasswordDialog open onClose={onClose} />);
    leave(dialog, 'Old password', '');
    expect(await within(dialog).findByText('Please enter old password')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Please enter new password')).toBeTruthy();
    leave(dialog, 'New password', 'short');
    expect(await within(dialog).findByText('The password must be 8 to 128 characters long')).toBeTruthy();
    expect(requestsTo('/web/login/pass')).toHaveLength(0);

    leave(dialog, 'Old password', 'old-secret');
    leave(dialog, 'New password', 'new-secret-1');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(await sentTo('/web/login/pass')).toEqual([{ old_pwd: 'old-secret', new_pwd: 'new-secret-1' }]);
    expect(showSuccess).toHaveBeenCalledWith('Password changed', 1.5);
  });
});

describe('ChangeEmailDialog', () => {
  it('asks for a valid address before sending a code with the scene "email"', async () => {
    answer('/web/login/verify_email', ok({}, 'Code sent'));
    const dialog = await renderDialog(<ChangeEmailDialog open onClose={vi.fn()} />);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Get code' }));
    expect(await within(dialog).findByText('Please enter email')).toBeTruthy();
    leave(dialog, 'New email', 'nope');
    expect(await within(dialog).findByText('Email format incorrect')).toBeTruthy();
    await waitFor(() =>
      expect(within(dialog).getByRole('button', { name: 'Get code' }).hasAttribute('disabled')).toBe(false),
    );
    expect(requestsTo('/web/login/verify_email')).toHaveLength(0);

    leave(dialog, 'New email', 'new@example.com');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Get code' }));
    await within(dialog).findByRole('button', { name: '60 s' });
    expect(await sentTo('/web/login/verify_email')).toEqual([{ email: 'new@example.com', scene: 'email' }]);
    expect(showSuccess).toHaveBeenCalledWith('Code sent', 1.5);
  });

  it('requires the code on submit', async () => {
    const dialog = await renderDialog(<ChangeEmailDialog open onClose={vi.fn()} />);
    leave(dialog, 'New email', 'new@example.com');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Please enter verification code')).toBeTruthy();
    expect(requestsTo('/web/login/email')).toHaveLength(0);
  });
});
