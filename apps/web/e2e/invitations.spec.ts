import type { APIRequestContext, BrowserContext, Page } from '@playwright/test';
import { formatExpiry } from '../src/lib/dates.ts';
import { callBody, expect, mailedCode, openAccountDialog, storedSession, test, toast } from './support.ts';

const PASSWORD = 'invite-Passw0rd';

/** Fills the registration form the page shows (at /login?formType=regist…) with a mailed code. */
async function register(page: Page, request: APIRequestContext, address: string): Promise<void> {
  await page.getByLabel('Email', { exact: true }).fill(address);
  await page.getByRole('button', { name: 'Get code' }).click();
  await expect(page.getByRole('button', { name: /^\d+ s$/ })).toBeDisabled();
  await page.getByLabel('Verification code').fill(await mailedCode(request, address));
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page).toHaveURL('/buy');
  await expect(page.getByRole('button', { name: 'Account menu' })).toContainText(address);
}

async function storedExpiry(page: Page): Promise<number> {
  const { user } = await storedSession(page);
  return (JSON.parse(user ?? '{}') as { expire_user: number }).expire_user;
}

async function openTrialDialog(page: Page) {
  await page.getByRole('button', { name: 'Claim free trial' }).click();
  const dialog = page.getByRole('dialog', { name: 'Free trial' });
  await expect(dialog).toBeVisible();
  return dialog;
}

test('claim the trial once, invite a friend through the copied link, withdraw the reward', async ({
  page,
  context,
  browser,
  request,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const conf = (await (await request.post('/web/invite/conf', { data: callBody() })).json()) as {
    data: { open_trial: string; trial_minute: number; invite_minute: number };
  };
  // The defaults: one day each, which the pages say as people count time.
  expect(conf.data).toEqual({ open_trial: '1', trial_minute: 1440, invite_minute: 1440 });
  const { trial_minute: trialMinutes, invite_minute: inviteMinutes } = conf.data;

  const stamp = Date.now();
  const inviter = `inviter-${stamp}@example.com`;
  const friend = `friend-${stamp}@example.com`;

  // A registers and claims the trial from the side menu: granted once, then refused.
  await page.goto('/login?formType=regist');
  await register(page, request, inviter);
  const before = await storedExpiry(page);
  const dialog = await openTrialDialog(page);
  await dialog.getByRole('button', { name: 'Claim now' }).click();
  await expect(toast(page, 'Free trial claimed: 1 day added.')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL('/buy');
  const afterTrial = await storedExpiry(page);
  expect(afterTrial).toBeGreaterThanOrEqual(Math.max(before, Math.floor(stamp / 1000)) + trialMinutes * 60);
  await expect(page.getByTestId('expiry')).toHaveText(formatExpiry(afterTrial) ?? '');

  // Claimed: the side menu and the User info dialog say so, with the trial's end, and offer no button.
  const trialEnd = `Trial ends ${formatExpiry(afterTrial) ?? ''}`;
  const status = page.getByRole('region', { name: 'Subscription' });
  await expect(status).toContainText('Claimed');
  await expect(status).toContainText(trialEnd);
  await expect(status.getByRole('button', { name: 'Claim free trial' })).toHaveCount(0);
  await page.goto('/invite');
  const userInfo = await openAccountDialog(page, 'User info');
  await expect(userInfo).toContainText('Claimed');
  await expect(userInfo).toContainText(trialEnd);
  await expect(userInfo.getByRole('button', { name: 'Claim free trial' })).toHaveCount(0);
  await userInfo.getByRole('button', { name: 'Close' }).first().click();
  await expect(userInfo).toBeHidden();

  // A copies the share link.
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
  await page.getByRole('button', { name: 'Copy link' }).click();
  await expect(toast(page, 'Copy successful')).toBeVisible();
  const link = await page.evaluate(() => navigator.clipboard.readText());
  expect(link).toMatch(/\/login\?formType=regist&invite_code=[^&]+$/);
  await expect(page.getByLabel('Share link')).toHaveValue(link);
  await expect(page.getByRole('button', { name: 'Withdraw trial time' })).toBeDisabled();

  // B registers through it in another browser.
  const other: BrowserContext = await browser.newContext();
  const friendPage = await other.newPage();
  await friendPage.goto(link);
  await expect(friendPage.locator('[data-invite-code]')).toHaveText(
    new URL(link).searchParams.get('invite_code') ?? '',
  );
  await register(friendPage, request, friend);
  await other.close();

  // A sees B, masked and unclaimed, withdraws, and the expiry grows by invite_minute.
  await page.reload();
  const row = page.getByRole('row').filter({ hasText: /\*\*\*@example\.com/ });
  await expect(row).toHaveCount(1);
  await expect(row).not.toContainText(friend);
  await expect(row).toContainText(friend.slice(0, 2));
  await expect(row).toContainText('Unclaimed');
  await expect(row).toContainText('1 day');
  const withdraw = page.getByRole('button', { name: 'Withdraw trial time' });
  await expect(withdraw).toBeEnabled();
  await withdraw.click();
  await expect(toast(page, '1 day added to your plan.')).toBeVisible();
  await expect(row).toContainText('Claimed');
  await expect(withdraw).toBeDisabled();
  await expect.poll(() => storedExpiry(page)).toBe(afterTrial + inviteMinutes * 60);
  await expect(page.getByTestId('expiry')).toHaveText(formatExpiry(afterTrial + inviteMinutes * 60) ?? '');
});
