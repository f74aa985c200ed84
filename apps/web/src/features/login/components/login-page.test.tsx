import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '../../../lib/storage-keys.ts';
import { answer, answerLater, ok, refused, requestsTo, sentTo } from '../../../test/network.ts';
import { type Rendered, renderWithProviders } from '../../../test/render.tsx';

vi.mock('../../../lib/page.ts', () => import('../../../test/fake-page.ts'));
vi.mock('../../../lib/toast.ts', () => import('../../../test/fake-toast.ts'));

const { openPage } = await import('../../../test/fake-page.ts');
const { showSuccess } = await import('../../../test/fake-toast.ts');
const { LoginPage } = await import('./login-page.tsx');

const USER = {
  account: 'a@example.com',
  expire_user: 0,
  subscribe_type: 1,
  invite_code: 'ME',
  connections: 1,
};

let page: Rendered;

async function renderAt(url: string) {
  page = await renderWithProviders([{ path: '/login', element: <LoginPage /> }], { url });
  await screen.findByRole('heading', { level: 1 });
}

const field = (label: string) => screen.getByLabelText(label, { selector: 'input' });
const location = () => page.location();

function type(label: string, value: string) {
  fireEvent.change(field(label), { target: { value } });
}

function typeAndLeave(label: string, value: string) {
  type(label, value);
  fireEvent.blur(field(label));
}

/** The sign-in form, filled in for a@example.com. */
function fillSignIn(password: string) {
  type('Email', 'a@example.com');
  type('Password', password);
}

/** The registration form, filled in for new@example.com with a code and a confirmed password. */
function fillRegistration(confirmation = 'long-enough') {
  type('Email', 'new@example.com');
  type('Verification code', '123456');
  type('Password', 'long-enough');
  type('Confirm password', confirmation);
}

/** The reset form, filled in for a@example.com with a code and a confirmed new password. */
function fillReset() {
  type('Email', 'a@example.com');
  type('Verification code', '654321');
  type('New password', 'long-enough');
  type('Confirm new password', 'long-enough');
}

async function submit(name: string) {
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name }));
    await Promise.resolve();
  });
}

afterEach(() => {
  vi.useRealTimers();
});

describe('LoginPage, sign-in mode', () => {
  it('shows e-mail, password, the forgot-password link and the way to registration', async () => {
    await renderAt('/login');
    expect(screen.getByRole('heading', { level: 1, name: 'Log in' })).toBeTruthy();
    expect(field('Email')).toBeTruthy();
    expect(field('Password').getAttribute('type')).toBe('password');
    expect(screen.queryByLabelText('Verification code')).toBeNull();
    expect(screen.getByRole('link', { name: 'No account yet? Register' }).getAttribute('href')).toBe(
      '/login?formType=regist',
    );
    expect(screen.getByRole('button', { name: 'Forgot password?' })).toBeTruthy();
  });

  it('shows the typed password on request, and hides it again', async () => {
    await renderAt('/login');
    type('Password', 'secret-pass');
    const reveal = screen.getByRole('button', { name: 'Show password' });
    fireEvent.click(reveal);
    expect(field('Password').getAttribute('type')).toBe('text');
    expect(reveal.getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(reveal);
    expect(field('Password').getAttribute('type')).toBe('password');
    expect((field('Password') as HTMLInputElement).value).toBe('secret-pass');
  });

  it('checks each field when it is left', async () => {
    await renderAt('/login');
    typeAndLeave('Email', '');
    expect(await screen.findByText('Please enter email')).toBeTruthy();
    typeAndLeave('Email', 'not-an-address');
    expect(await screen.findByText('Email format incorrect')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('Please enter email')).toBeNull());
    fireEvent.blur(field('Password'));
    expect(await screen.findByText('Please enter password')).toBeTruthy();
  });

  it('checks every field on submit and sends nothing while one is wrong', async () => {
    await renderAt('/login');
    await submit('Log in');
    expect(await screen.findByText('Please enter email')).toBeTruthy();
    expect(await screen.findByText('Please enter password')).toBeTruthy();
    expect(requestsTo('/web/login/login')).toHaveLength(0);
  });

  it('signs in, stores token and user, and opens the console', async () => {
    answer('/web/login/login', ok({ token: 'T1', ...USER }));
    await renderAt('/login');
    type('Email', ' a@example.com ');
    type('Password', 'secret-pass');
    await submit('Log in');
    await waitFor(() => expect(openPage).toHaveBeenCalledWith('/buy'));
    expect(await sentTo('/web/login/login')).toEqual([{ email: 'a@example.com', password: 'secret-pass' }]);
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBe('T1');
    expect(JSON.parse(localStorage.getItem(STORAGE_KEYS.user) ?? 'null')).toEqual(USER);
  });

  it('stays on the page, signed out, when the server refuses the credentials', async () => {
    answer('/web/login/login', refused(400, 'Wrong email or password'));
    await renderAt('/login');
    fillSignIn('wrong-pass');
    await submit('Log in');
    await waitFor(() => expect(requestsTo('/web/login/login')).toHaveLength(1));
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Log in' }).className).not.toMatch(/loading/),
    );
    expect(openPage).not.toHaveBeenCalled();
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
  });
});

describe('LoginPage, registration mode', () => {
  it('opens with ?formType=regist and shows e-mail, code with its button, password twice', async () => {
    await renderAt('/login?formType=regist');
    expect(screen.getByRole('heading', { level: 1, name: 'Create an account' })).toBeTruthy();
    for (const label of ['Email', 'Verification code', 'Password', 'Confirm password']) {
      expect(field(label)).toBeTruthy();
    }
    expect(screen.getByRole('button', { name: 'Get code' })).toBeTruthy();
    expect(screen.queryByText('Invite code')).toBeNull();
    expect(screen.getByRole('link', { name: 'Already have an account? Log in' }).getAttribute('href')).toBe(
      '/login',
    );
  });

  it('checks the code format and the second password on blur', async () => {
    await renderAt('/login?formType=regist');
    typeAndLeave('Verification code', '');
    expect(await screen.findByText('Please enter verification code')).toBeTruthy();
    typeAndLeave('Verification code', '12ab');
    expect(await screen.findByText('Verification code format incorrect')).toBeTruthy();
    typeAndLeave('Password', 'short');
    expect(await screen.findByText('The password must be 8 to 128 characters long')).toBeTruthy();
    typeAndLeave('Password', 'x'.repeat(129));
    expect(await screen.findByText('The password must be 8 to 128 characters long')).toBeTruthy();
    typeAndLeave('Password', 'long-enough');
    await waitFor(() =>
      expect(screen.queryByText('The password must be 8 to 128 characters long')).toBeNull(),
    );
    typeAndLeave('Confirm password', '');
    expect(await screen.findByText('Please confirm password')).toBeTruthy();
    typeAndLeave('Confirm password', 'long-enougH');
    expect(await screen.findByText('The two passwords do not match')).toBeTruthy();
    typeAndLeave('Confirm password', 'long-enough');
    await waitFor(() => expect(screen.queryByText('The two passwords do not match')).toBeNull());
  });

  it('checks a confirmation again when the password it follows changes', async () => {
    await renderAt('/login?formType=regist');
    typeAndLeave('Password', 'long-enough');
    typeAndLeave('Confirm password', 'long-enough');
    type('Password', 'long-enough-2');
    expect(await screen.findByText('The two passwords do not match')).toBeTruthy();
    type('Password', 'long-enough');
    await waitFor(() => expect(screen.queryByText('The two passwords do not match')).toBeNull());
  });

  it('refuses a mismatched confirmation on submit', async () => {
    await renderAt('/login?formType=regist');
    fillRegistration('different-one');
    await submit('Register');
    expect(await screen.findByText('The two passwords do not match')).toBeTruthy();
    expect(requestsTo('/web/login/register')).toHaveLength(0);
  });

  it('keeps the invite code of the link, shows it read-only across mode switches and sends it', async () => {
    answer('/web/login/register', ok({ token: 'T2', ...USER }));
    await renderAt('/login?formType=regist&invite_code=ABC123');
    expect(screen.getByText('ABC123')).toBeTruthy();
    expect(screen.queryByDisplayValue('ABC123')).toBeNull();

    fireEvent.click(screen.getByRole('link', { name: 'Already have an account? Log in' }));
    await screen.findByRole('heading', { level: 1, name: 'Log in' });
    fireEvent.click(screen.getByRole('link', { name: 'No account yet? Register' }));
    await screen.findByRole('heading', { level: 1, name: 'Create an account' });
    expect(location()).toBe('/login?formType=regist');
    expect(screen.getByText('ABC123')).toBeTruthy();

    fillRegistration();
    await submit('Register');
    await waitFor(() => expect(openPage).toHaveBeenCalledWith('/buy'));
    expect(await sentTo('/web/login/register')).toEqual([
      { email: 'new@example.com', email_code: '123456', password: 'long-enough', invite_code: 'ABC123' },
    ]);
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBe('T2');
  });

  it('sends no invite code when the link had none', async () => {
    answer('/web/login/register', ok({ token: 'T3', ...USER }));
    await renderAt('/login?formType=regist');
    fillRegistration();
    await submit('Register');
    await waitFor(() => expect(openPage).toHaveBeenCalledWith('/buy'));
    expect(await sentTo('/web/login/register')).toEqual([
      { email: 'new@example.com', email_code: '123456', password: 'long-enough' },
    ]);
  });
});

describe('LoginPage, forgotten password', () => {
  it('is reached from sign-in and leads back', async () => {
    await renderAt('/login');
    fireEvent.click(screen.getByRole('button', { name: 'Forgot password?' }));
    await screen.findByRole('heading', { level: 1, name: 'Reset password' });
    for (const label of ['Email', 'Verification code', 'New password', 'Confirm new password']) {
      expect(field(label)).toBeTruthy();
    }
    expect(screen.getByRole('button', { name: 'Get code' })).toBeTruthy();
    fireEvent.click(screen.getByRole('link', { name: 'Back to sign-in' }));
    await screen.findByRole('heading', { level: 1, name: 'Log in' });
    expect(location()).toBe('/login');
  });

  it('checks the fields on submit, the passwords included', async () => {
    await renderAt('/login?formType=forget');
    await submit('Reset password');
    for (const text of [
      'Please enter email',
      'Please enter verification code',
      'Please enter password',
      'Please confirm password',
    ]) {
      expect(await screen.findByText(text)).toBeTruthy();
    }
    type('New password', 'long-enough');
    type('Confirm new password', 'long-enougH');
    await submit('Reset password');
    expect(await screen.findByText('The two passwords do not match')).toBeTruthy();
    expect(requestsTo('/web/login/forget')).toHaveLength(0);
  });

  it('resets, shows the server message and returns to sign-in with the address filled in', async () => {
    answer('/web/login/forget', ok({}, 'Password reset'));
    await renderAt('/login?formType=forget');
    fillReset();
    await submit('Reset password');
    await screen.findByRole('heading', { level: 1, name: 'Log in' });
    expect(await sentTo('/web/login/forget')).toEqual([
      { email: 'a@example.com', email_code: '654321', password: 'long-enough' },
    ]);
    expect(showSuccess).toHaveBeenCalledWith('Password reset', 1.5);
    expect((field('Email') as HTMLInputElement).value).toBe('a@example.com');
    expect((field('Password') as HTMLInputElement).value).toBe('');
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
  });
});

describe('LoginPage, the get-code button (spec section 4)', () => {
  const button = () => screen.getByRole('button', { name: /^(Get code|Sending…|\d+ s)$/ });

  it('asks for an address first: empty gives "please enter email", malformed "email format incorrect"', async () => {
    await renderAt('/login?formType=regist');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Get code' }));
      await Promise.resolve();
    });
    expect(await screen.findByText('Please enter email')).toBeTruthy();
    type('Email', 'nope');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Get code' }));
      await Promise.resolve();
    });
    expect(await screen.findByText('Email format incorrect')).toBeTruthy();
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Get code' }).hasAttribute('disabled')).toBe(false),
    );
    expect(requestsTo('/web/login/verify_email')).toHaveLength(0);
  });

  it('goes sending → 60 s countdown → idle, with the scene of the mode', async () => {
    const code = answerLater('/web/login/verify_email');
    await renderAt('/login?formType=regist');
    vi.useFakeTimers();
    type('Email', 'new@example.com');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Get code' }));
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(await sentTo('/web/login/verify_email')).toEqual([
      { email: 'new@example.com', scene: 'register' },
    ]);
    expect(button().textContent).toBe('Sending…');
    expect(button().hasAttribute('disabled')).toBe(true);

    await act(async () => {
      code.send(ok({}, 'Code sent'));
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(showSuccess).toHaveBeenCalledWith('Code sent', 1.5);
    expect(button().textContent).toBe('60 s');
    expect(button().hasAttribute('disabled')).toBe(true);

    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(button().textContent).toBe('59 s');
    await act(() => vi.advanceTimersByTimeAsync(58_000));
    expect(button().textContent).toBe('1 s');
    expect(button().hasAttribute('disabled')).toBe(true);
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(button().textContent).toBe('Get code');
    expect(button().hasAttribute('disabled')).toBe(false);
  });

  it('goes back to idle at once when the call fails', async () => {
    answer('/web/login/verify_email', refused(429, 'Too many requests', { retry_after: 42 }));
    await renderAt('/login?formType=forget');
    vi.useFakeTimers();
    type('Email', 'a@example.com');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Get code' }));
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(await sentTo('/web/login/verify_email')).toEqual([{ email: 'a@example.com', scene: 'forget' }]);
    expect(button().textContent).toBe('Get code');
    expect(button().hasAttribute('disabled')).toBe(false);
    expect(showSuccess).not.toHaveBeenCalled();
  });
});

describe('LoginPage, failures next to the form as well as in the toast', () => {
  const alert = () => screen.queryByRole('alert');

  /** The alert, checked to sit above the submit button it explains. */
  async function findFailure(text: string, submitName: string) {
    const shown = await screen.findByRole('alert');
    expect(shown.textContent).toBe(text);
    const submitButton = screen.getByRole('button', { name: submitName });
    expect(shown.compareDocumentPosition(submitButton) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    return shown;
  }

  it('shows a refused sign-in above the button until a field is edited', async () => {
    answer('/web/login/login', refused(400, 'Wrong email or password'));
    await renderAt('/login');
    expect(alert()).toBeNull();
    fillSignIn('wrong-pass');
    await submit('Log in');
    await findFailure('Wrong email or password', 'Log in');

    type('Password', 'wrong-pass2');
    await waitFor(() => expect(alert()).toBeNull());
  });

  it('announces the same failure again on the next attempt', async () => {
    answer('/web/login/login', refused(423, 'Too many attempts: the account is locked for 15 minutes'));
    await renderAt('/login');
    fillSignIn('wrong-pass');
    await submit('Log in');
    const first = await findFailure('Too many attempts: the account is locked for 15 minutes', 'Log in');
    await submit('Log in');
    await waitFor(() => expect(requestsTo('/web/login/login')).toHaveLength(2));
    const second = await findFailure('Too many attempts: the account is locked for 15 minutes', 'Log in');
    // A new element: a screen reader reads an alert out when it appears.
    expect(second).not.toBe(first);
  });

  it('shows a refused registration', async () => {
    answer('/web/login/register', refused(400, 'The verification code is wrong or has expired'));
    await renderAt('/login?formType=regist');
    fillRegistration();
    await submit('Register');
    await findFailure('The verification code is wrong or has expired', 'Register');
    expect(openPage).not.toHaveBeenCalled();
  });

  it('shows a refused password reset, and stays in the reset form', async () => {
    answer('/web/login/forget', refused(400, 'The verification code is wrong or has expired'));
    await renderAt('/login?formType=forget');
    fillReset();
    await submit('Reset password');
    await findFailure('The verification code is wrong or has expired', 'Reset password');
    expect(screen.getByRole('heading', { level: 1, name: 'Reset password' })).toBeTruthy();
  });

  it('shows a refused code request, and clears it when a code is sent', async () => {
    answer('/web/login/verify_email', () =>
      requestsTo('/web/login/verify_email').length > 1
        ? ok({}, 'Code sent')
        : refused(429, 'Too many requests: try again in 42 s'),
    );
    await renderAt('/login?formType=regist');
    type('Email', 'new@example.com');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Get code' }));
      await Promise.resolve();
    });
    await findFailure('Too many requests: try again in 42 s', 'Register');

    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Get code' }));
      await Promise.resolve();
    });
    await waitFor(() => expect(showSuccess).toHaveBeenCalledWith('Code sent', 1.5));
    expect(alert()).toBeNull();
  });

  it('says something went wrong when the failure is not the server’s answer', async () => {
    answer('/web/login/login', ok({ token: 'T1' }));
    await renderAt('/login');
    fillSignIn('secret-pass');
    await submit('Log in');
    await findFailure('Something went wrong. Please try again.', 'Log in');
    expect(openPage).not.toHaveBeenCalled();
  });
});
