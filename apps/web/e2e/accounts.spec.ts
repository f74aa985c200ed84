import type { APIRequestContext, Page } from '@playwright/test';
import { formatExpiry } from '../src/lib/dates.ts';
import {
  callBody,
  chooseFromAccountMenu,
  expect,
  mailedCode,
  openAccountDialog,
  storedSession,
  test,
  toast,
} from './support.ts';

/** Presses the get-code button next to the code field and returns the code mailed to `address`. */
async function requestCode(page: Page, request: APIRequestContext, address: string): Promise<string> {
  const button = page.getByRole('button', { name: 'Get code' });
  await button.click();
  // Spec section 4: after the send, a countdown in seconds keeps the button disabled.
  await expect(page.getByRole('button', { name: /^\d+ s$/ })).toBeDisabled();
  return mailedCode(request, address);
}

test('register, change password, sign out and in, change e-mail, reset a forgotten password', async ({
  page,
  browser,
  request,
  consoleErrors,
}) => {
  test.setTimeout(120_000);
  // The browser logs every refused call (the wrong password below, the revoked token at the end).
  consoleErrors.allow(/status of 40[01]/);
  const stamp = Date.now();
  const first = `journey-${stamp}@example.com`;
  const second = `journey-${stamp}-new@example.com`;
  const passwords = ['first-Passw0rd', 'second-Passw0rd', 'third-Passw0rd'] as const;

  // Register with a code from real mail.
  await page.goto('/login?formType=regist');
  await page.getByLabel('Email', { exact: true }).fill(first);
  const registerCode = await requestCode(page, request, first);
  await page.getByLabel('Verification code').fill(registerCode);
  await page.getByLabel('Password', { exact: true }).fill(passwords[0]);
  await page.getByLabel('Confirm password').fill(passwords[0]);
  await page.getByRole('button', { name: 'Register' }).click();

  // The console shows the account and its expiry.
  await expect(page).toHaveURL('/buy');
  await expect(page.getByRole('button', { name: 'Account menu' })).toContainText(first);
  const registered = await storedSession(page);
  expect(registered.token).toBeTruthy();
  const user = JSON.parse(registered.user ?? '{}') as { account: string; expire_user: number };
  expect(user.account).toBe(first);
  await expect(page.getByTestId('expiry')).toHaveText(formatExpiry(user.expire_user) ?? 'No active plan');

  // Change password.
  const passwordDialog = await openAccountDialog(page, 'Change password');
  await passwordDialog.getByLabel('Old password').fill(passwords[0]);
  await passwordDialog.getByLabel('New password').fill(passwords[1]);
  await passwordDialog.getByRole('button', { name: 'Save' }).click();
  await expect(toast(page, 'Password changed')).toBeVisible();
  await expect(passwordDialog).toBeHidden();

  // Sign out.
  // Logging out reloads the page (spec section 4).
  const reloaded = page.waitForEvent('load');
  await chooseFromAccountMenu(page, 'Log out');
  await reloaded;
  await expect(page).toHaveURL('/login');
  expect(await storedSession(page)).toEqual({ token: null, user: null });

  // The old password no longer works; the new one does.
  await page.getByLabel('Email', { exact: true }).fill(first);
  await page.getByLabel('Password', { exact: true }).fill(passwords[0]);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await expect(toast(page, 'Wrong e-mail address or password')).toBeVisible();
  await expect(page).toHaveURL('/login');
  await page.getByLabel('Password', { exact: true }).fill(passwords[1]);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await expect(page).toHaveURL('/buy');
  await expect(page.getByRole('button', { name: 'Account menu' })).toContainText(first);
  const signedIn = await storedSession(page);

  // Change e-mail with a code sent to the new address; the session continues on the new token.
  const emailDialog = await openAccountDialog(page, 'Change email');
  await emailDialog.getByLabel('New email').fill(second);
  const changeCode = await requestCode(page, request, second);
  await emailDialog.getByLabel('Verification code').fill(changeCode);
  await emailDialog.getByRole('button', { name: 'Save' }).click();
  await expect(toast(page, 'E-mail address changed')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Account menu' })).toContainText(second);
  const changed = await storedSession(page);
  expect(changed.token).toBeTruthy();
  expect(changed.token).not.toBe(signedIn.token);
  expect(JSON.parse(changed.user ?? '{}')).toMatchObject({ account: second });
  const revokedByChange = await request.post('/web/user/info', {
    headers: { authorization: signedIn.token ?? '' },
    data: callBody(),
  });
  expect(revokedByChange.status()).toBe(401);
  await page.goto('/order');
  await expect(page.getByRole('banner').getByRole('heading', { name: 'My orders' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Account menu' })).toContainText(second);

  // Reset the forgotten password from a signed-out browser.
  const visitor = await browser.newContext();
  const other = await visitor.newPage();
  await other.goto('/login');
  await other.getByRole('button', { name: 'Forgot password?' }).click();
  await expect(other.getByRole('heading', { level: 1, name: 'Reset password' })).toBeVisible();
  await other.getByLabel('Email', { exact: true }).fill(second);
  const resetCode = await requestCode(other, request, second);
  await other.getByLabel('Verification code').fill(resetCode);
  await other.getByLabel('New password', { exact: true }).fill(passwords[2]);
  await other.getByLabel('Confirm new password').fill(passwords[2]);
  await other.getByRole('button', { name: 'Reset password' }).click();
  await expect(toast(other, 'Your password has been reset; please sign in')).toBeVisible();
  await expect(other.getByRole('heading', { level: 1, name: 'Log in' })).toBeVisible();
  await expect(other.getByLabel('Email', { exact: true })).toHaveValue(second);
  await other.getByLabel('Password', { exact: true }).fill(passwords[2]);
  await other.getByRole('button', { name: 'Log in', exact: true }).click();
  await expect(other).toHaveURL('/buy');
  await visitor.close();

  // The token of the first browser was revoked by the reset: refused by the server, and the page
  // that still holds it is signed out.
  const revokedByReset = await request.post('/web/user/info', {
    headers: { authorization: changed.token ?? '' },
    data: callBody(),
  });
  expect(revokedByReset.status()).toBe(401);
  await page.goto('/order');
  await expect(page).toHaveURL('/login');
  // The server's message is shown after the reload that the sign-out causes: once it is there, the
  // page has settled and its storage can be read.
  await expect(toast(page, 'Please sign in')).toBeVisible();
  expect(await storedSession(page)).toEqual({ token: null, user: null });
});
