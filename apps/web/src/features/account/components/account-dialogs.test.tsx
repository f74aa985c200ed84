import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';

const request = vi.fn();
vi.mock('../../../lib/api-client.ts', () => ({
  request: (...args: unknown[]) => request(...args) as unknown,
}));
const showSuccess = vi.fn();
vi.mock('../../../lib/toast.ts', () => ({
  ERROR_SECONDS: 5,
  MESSAGE_SECONDS: 1.5,
  showSuccess: (text: string) => showSuccess(text),
  showError: vi.fn(),
}));

const { ChangePasswordDialog } = await import('./change-password-dialog.tsx');
const { ChangeEmailDialog } = await import('./change-email-dialog.tsx');

async function renderDialog(node: ReactNode) {
  await act(async () => {
    render(<QueryClientProvider client={new QueryClient()}>{node}</QueryClientProvider>);
  });
  return screen.findByRole('dialog', {}, { timeout: 5000 });
}

function leave(dialog: HTMLElement, label: string, value: string) {
  const input = within(dialog).getByLabelText(label, { selector: 'input' });
  fireEvent.change(input, { target: { value } });
  fireEvent.blur(input);
}

beforeEach(() => {
  request.mockReset();
  showSuccess.mockReset();
});

describe('ChangePasswordDialog', () => {
  it('checks old and new password on blur and on submit, then sends old_pwd and new_pwd', async () => {
    request.mockResolvedValue({ data: {}, msg: 'Password changed' });
    const onClose = vi.fn();
    const dialog = await renderDialog(<ChangePasswordDialog open onClose={onClose} />);
    leave(dialog, 'Old password', '');
    expect(await within(dialog).findByText('Please enter old password')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Please enter new password')).toBeTruthy();
    leave(dialog, 'New password', 'short');
    expect(await within(dialog).findByText('The password must be 8 to 128 characters long')).toBeTruthy();
    expect(request).not.toHaveBeenCalled();

    leave(dialog, 'Old password', 'old-secret');
    leave(dialog, 'New password', 'new-secret-1');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(request).toHaveBeenCalledWith('/web/login/pass', {
      old_pwd: 'old-secret',
      new_pwd: 'new-secret-1',
    });
    expect(showSuccess).toHaveBeenCalledWith('Password changed');
  });
});

describe('ChangeEmailDialog', () => {
  it('asks for a valid address before sending a code with the scene "email"', async () => {
    request.mockResolvedValue({ data: {}, msg: 'Code sent' });
    const dialog = await renderDialog(<ChangeEmailDialog open onClose={vi.fn()} />);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Get code' }));
    expect(await within(dialog).findByText('Please enter email')).toBeTruthy();
    leave(dialog, 'New email', 'nope');
    expect(await within(dialog).findByText('Email format incorrect')).toBeTruthy();
    await waitFor(() =>
      expect(within(dialog).getByRole('button', { name: 'Get code' }).hasAttribute('disabled')).toBe(false),
    );
    expect(request).not.toHaveBeenCalled();

    leave(dialog, 'New email', 'new@example.com');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Get code' }));
    await within(dialog).findByRole('button', { name: '60 s' });
    expect(request).toHaveBeenCalledWith('/web/login/verify_email', {
      email: 'new@example.com',
      scene: 'email',
    });
    expect(showSuccess).toHaveBeenCalledWith('Code sent');
  });

  it('requires the code on submit', async () => {
    const dialog = await renderDialog(<ChangeEmailDialog open onClose={vi.fn()} />);
    leave(dialog, 'New email', 'new@example.com');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Please enter verification code')).toBeTruthy();
    expect(request).not.toHaveBeenCalled();
  });
});
