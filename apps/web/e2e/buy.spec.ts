import type { Locator, Page } from '@playwright/test';
import { formatDateTime } from '@skyway/shared/dates';
import { formatYuan } from '@skyway/shared/money';
import { applyPurchase, PERIODS, type Entitlement } from '@skyway/shared/plans';
import { SUBSCRIBE_TYPES, type User, type UserInfo } from '@skyway/shared/user';
import { formatExpiry } from '../src/lib/dates.ts';
import { buyAndPay, choose, monthlyPrice } from './checkout.ts';
import {
  expect,
  expectNoAccessibilityViolations,
  freshAccount,
  openAccountDialog,
  signInAs,
  storedSession,
  test,
  userInfo,
} from './support.ts';

const MONTH = PERIODS.month;
const nowSeconds = () => Math.floor(Date.now() / 1000);

async function storedUser(page: Page): Promise<User> {
  const { user } = await storedSession(page);
  return JSON.parse(user ?? 'null') as User;
}

const entitlementOf = (info: UserInfo): Entitlement => ({
  expireAt: info.expire_user,
  connections: info.connections,
  pendingConnections: info.pending_connections,
  pendingFrom: info.pending_from,
});

const preview = (page: Page) => page.getByRole('region', { name: 'What this purchase does' });

/** Done closes the dialog and takes order_id out of the address. */
async function done(page: Page, dialog: Locator): Promise<void> {
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL('/buy');
}

test('buy a month for one connection at the sandbox checkout: paid, listed, and the access grows', async ({
  page,
  request,
}) => {
  await signInAs(page, await freshAccount(request));
  const price = formatYuan(await monthlyPrice(request));
  await page.goto('/buy');
  const status = page.getByRole('region', { name: 'Subscription' });
  await expect(page.getByTestId('expiry')).toHaveText('No active plan');
  await expect(status.locator('.subscription-tag')).toHaveText('Not purchased');
  await choose(page, 1);
  await expect(page.getByTestId('buy-total')).toHaveText(price);
  await expect(preview(page)).toContainText('Your access starts now.');

  const before = nowSeconds();
  const { dialog, orderId } = await buyAndPay(page, price);
  const after = nowSeconds();
  await expect(dialog).toContainText('Duration (months)1');
  await expect(dialog).toContainText('Connections1');
  await expectNoAccessibilityViolations(page, '.ant-modal');

  // The dialog refreshed the user: 31 days from the payment, bought by card.
  await expect.poll(async () => (await storedUser(page)).subscribe_type).toBe(SUBSCRIBE_TYPES.card);
  const { expire_user: expiry } = await storedUser(page);
  expect(expiry).toBeGreaterThanOrEqual(before + MONTH.days * 86_400);
  expect(expiry).toBeLessThanOrEqual(after + MONTH.days * 86_400);
  await expect(page.getByTestId('expiry')).toHaveText(formatExpiry(expiry) ?? '');
  await expect(status.locator('.subscription-tag')).toHaveText('Online payment');
  await done(page, dialog);

  await page
    .getByRole('navigation', { name: 'Console menu' })
    .getByRole('link', { name: 'My orders' })
    .click();
  await expect(page).toHaveURL('/order');
  const row = page.getByRole('row').filter({ hasText: orderId });
  await expect(row).toContainText('Paid');
  await expect(row).toContainText(price);
  await expect(row.getByRole('cell').nth(1)).toHaveText('1');
  await expect(row.getByRole('button', { name: 'Pay' })).toHaveCount(0);
});

test('an upgrade applies at once, a downgrade at expiry', async ({ page, request }) => {
  test.setTimeout(90_000);
  const buyer = await freshAccount(request);
  const { token } = buyer;
  await signInAs(page, buyer);
  const unitPrice = await monthlyPrice(request);

  // A first month at one connection.
  await page.goto('/buy');
  await choose(page, 1);
  await done(page, (await buyAndPay(page, formatYuan(unitPrice))).dialog);
  const first = await userInfo(request, token);
  expect(first.connections).toBe(1);

  // Two connections: an upgrade, at once; the remaining time is converted at the new size.
  await choose(page, 2);
  await expect(preview(page)).toContainText('Upgrade at once');
  await expect(preview(page)).toContainText('1 → 2');
  await expect(preview(page)).toContainText(`${formatDateTime(first.expire_user)} → `);
  await expect(page.getByTestId('buy-total')).toHaveText(formatYuan(unitPrice * 2));
  const before = nowSeconds();
  let paid = await buyAndPay(page, formatYuan(unitPrice * 2));
  const after = nowSeconds();
  await expect(paid.dialog).toContainText('Connections2');
  const upgraded = await userInfo(request, token);
  const purchase = { days: MONTH.days, connections: 2 };
  expect(upgraded.connections).toBe(2);
  expect(upgraded.pending_connections).toBeNull();
  // The server applied it at the payment, somewhere between these two moments.
  expect(upgraded.expire_user).toBeGreaterThanOrEqual(
    applyPurchase(entitlementOf(first), purchase, before).after.expireAt,
  );
  expect(upgraded.expire_user).toBeLessThanOrEqual(
    applyPurchase(entitlementOf(first), purchase, after).after.expireAt,
  );
  await expect.poll(async () => (await storedUser(page)).connections).toBe(2);
  await expect(page.getByTestId('expiry')).toHaveText(formatExpiry(upgraded.expire_user) ?? '');
  await done(page, paid.dialog);

  // Back to one connection: a downgrade, from the current expiry on.
  await choose(page, 1);
  const switchAt = formatDateTime(upgraded.expire_user);
  await expect(preview(page)).toContainText(`your current connections stay until ${switchAt}`);
  await expect(preview(page)).toContainText(`Connections until ${switchAt}2`);
  await expect(preview(page)).toContainText(`Connections from ${switchAt}1`);
  const expected = applyPurchase(
    entitlementOf(upgraded),
    { days: MONTH.days, connections: 1 },
    nowSeconds(),
  ).after;
  await expect(preview(page)).toContainText(`${switchAt} → ${formatDateTime(expected.expireAt)}`);
  paid = await buyAndPay(page, formatYuan(unitPrice));
  const downgraded = await userInfo(request, token);
  expect(downgraded).toMatchObject({
    connections: 2,
    expire_user: expected.expireAt,
    pending_connections: 1,
    pending_from: upgraded.expire_user,
  });
  await expect(page.getByTestId('expiry')).toHaveText(formatExpiry(expected.expireAt) ?? '');
  await done(page, paid.dialog);

  // The user info dialog says what is coming.
  const info = await openAccountDialog(page, 'User info');
  await expect(info).toContainText('Connections2');
  await expect(info).toContainText(`Connections from ${switchAt}1`);
  await expect(info).toContainText('Online payment');

  // Three paid orders, newest first.
  await page.goto('/order');
  await expect(page.getByRole('row').filter({ hasText: 'Paid' })).toHaveCount(3);
  await expect(page.getByRole('row').nth(1)).toContainText(paid.orderId);
});
