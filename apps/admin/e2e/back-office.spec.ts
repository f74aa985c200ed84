import { randomBytes } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { formatExpiry } from '../../web/src/lib/dates.ts';
import { callBody, expect, freshAccount, signInAs, test, userInfo } from '../../web/e2e/support.ts';
import {
  chargedTwice,
  mailedLink,
  ownerLink,
  saveScreenshot,
  setUpStaff,
  signIn,
  staffBrowser,
} from './support.ts';

const DAY = 86_400;
const address = (role: string) => `${role}-${randomBytes(5).toString('hex')}@example.com`;

test.beforeEach(({ consoleErrors }) => {
  // The browser logs the 401 of the session check that finds nobody signed in.
  consoleErrors.allow(/status of 401/);
});

/** The owner of a new back office: set up from the printed link, signed in with a recovery code. */
async function owner(page: Page, request: APIRequestContext) {
  const email = address('owner');
  const login = await setUpStaff(page, await ownerLink(request, email), email);
  await page.getByRole('button', { name: 'I have saved them: sign in' }).click();
  await signIn(page, login);
  await expect(page.getByTestId('dashboard')).toBeVisible();
  return login;
}

/** Invites a member from the Staff page; the list shows them as invited. */
async function invite(page: Page, email: string, role: string) {
  await page.getByRole('menuitem', { name: 'Staff' }).click();
  await page.getByRole('button', { name: 'Invite staff' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Invite staff' });
  await dialog.getByLabel('E-mail').fill(email);
  await dialog.getByLabel('Role').click();
  await page.locator('.ant-select-dropdown:visible').getByTitle(role, { exact: true }).click();
  await dialog.getByRole('button', { name: 'Invite staff' }).click();
  await expect(page.getByRole('row', { name: new RegExp(email) })).toContainText('Invited');
}

test('an owner sets up from the printed link and invites support, who adds three days to a customer with a reason', async ({
  page,
  request,
  browser,
}) => {
  const customer = await freshAccount(request);
  expect((await userInfo(request, customer.token)).expire_user).toBe(0);
  await owner(page, request);

  const supportEmail = address('support');
  await invite(page, supportEmail, 'Support');
  const support = await staffBrowser(browser, supportEmail, await mailedLink(request, supportEmail));
  const { page: desk } = support;
  // Support's menu holds what the role may use, and no more.
  await expect(desk.getByRole('menuitem', { name: 'Users' })).toBeVisible();
  await expect(desk.getByRole('menuitem', { name: 'Staff' })).toHaveCount(0);
  await expect(desk.getByRole('menuitem', { name: 'Audit log' })).toHaveCount(0);

  await desk.getByRole('menuitem', { name: 'Users' }).click();
  await desk.getByPlaceholder('Part of an e-mail address').fill(customer.account.slice(0, 12));
  await desk.getByRole('button', { name: 'Search' }).click();
  await desk.getByRole('link', { name: customer.account }).click();
  await expect(desk.getByTestId('expire-at')).toHaveText('—');

  await desk.getByRole('button', { name: 'Adjust time' }).click();
  const dialog = desk.getByRole('dialog', { name: 'Adjust time' });
  await dialog.getByLabel('Days').fill('3');
  await dialog.getByLabel('Why (kept in the audit log)').fill('Outage on 11-20, goodwill');
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(dialog).toBeHidden();

  // The customer has three days from now, to the second the server wrote.
  const now = Math.floor(Date.now() / 1000);
  await expect
    .poll(async () => (await userInfo(request, customer.token)).expire_user)
    .toBeGreaterThan(now + 3 * DAY - 120);
  const expiry = (await userInfo(request, customer.token)).expire_user;
  expect(expiry).toBeLessThanOrEqual(now + 3 * DAY + 5);
  await expect(desk.getByTestId('expire-at')).not.toHaveText('—');
  await desk.getByRole('tab', { name: 'Time ledger' }).click();
  await expect(desk.getByTestId('section-ledger')).toContainText('Staff adjustment');
  await expect(desk.getByTestId('section-ledger')).toContainText('+3d');

  // The customer's console shows the new expiry.
  const customerPage = await browser.newPage();
  await signInAs(customerPage, customer);
  await customerPage.goto('/buy');
  await expect(customerPage.getByTestId('expiry')).toHaveText(formatExpiry(expiry) ?? '');
  await customerPage.close();

  // The owner finds the change in the audit log: who, what and why.
  await page.getByRole('menuitem', { name: 'Audit log' }).click();
  const row = page.getByRole('row', { name: /user\.adjust_time/ }).first();
  await expect(row).toContainText(supportEmail);
  await expect(row).toContainText('Outage on 11-20, goodwill');
  await support.context.close();
});

test('a viewer sees accounts but no action, and the server refuses the change the page does not offer', async ({
  page,
  request,
  browser,
}) => {
  const customer = await freshAccount(request);
  await owner(page, request);
  const viewerEmail = address('viewer');
  await invite(page, viewerEmail, 'Viewer');
  const viewer = await staffBrowser(browser, viewerEmail, await mailedLink(request, viewerEmail));
  const { page: desk } = viewer;

  await desk.getByRole('menuitem', { name: 'Users' }).click();
  await desk.getByPlaceholder('Part of an e-mail address').fill(customer.account);
  await desk.getByRole('button', { name: 'Search' }).click();
  await desk.getByRole('link', { name: customer.account }).click();
  await expect(desk.getByTestId('expire-at')).toBeVisible();
  for (const action of ['Adjust time', 'End all sessions', 'Disable account']) {
    await expect(desk.getByRole('button', { name: action })).toHaveCount(0);
  }
  await desk.goto('/admin/audit');
  await expect(desk.getByText('Your role does not allow this page')).toBeVisible();

  const session = await desk.request.get('/admin/api/v1/session');
  const { csrf_token } = ((await session.json()) as { data: { csrf_token: string } }).data;
  const found = await desk.request.get(`/admin/api/v1/users?q=${encodeURIComponent(customer.account)}`);
  const id = ((await found.json()) as { data: { items: { id: string }[] } }).data.items[0]?.id;
  const refused = await desk.request.post(`/admin/api/v1/users/${id}/time`, {
    headers: { 'x-csrf-token': csrf_token },
    data: { days: 3, reason: 'not mine to give' },
  });
  expect(await refused.json()).toMatchObject({ code: 403, data: { reason: 'permission_denied' } });
  expect((await userInfo(request, customer.token)).expire_user).toBe(0);
  await viewer.context.close();
});

test('finance refunds a payment charged twice from the attention queue, and the order’s time stays', async ({
  page,
  request,
  browser,
}) => {
  const customer = await freshAccount(request);
  const created = await request.post('/web/order/create', {
    data: callBody({ period: 'month', connections: 1, pay_method: 'alipay' }),
    headers: { authorization: customer.token },
  });
  const orderId = ((await created.json()) as { data: { order_id: string } }).data.order_id;
  await chargedTwice(request, orderId);
  const paidUntil = (await userInfo(request, customer.token)).expire_user;
  expect(paidUntil).toBeGreaterThan(Date.now() / 1000);

  await owner(page, request);
  const financeEmail = address('finance');
  await invite(page, financeEmail, 'Finance');
  const finance = await staffBrowser(browser, financeEmail, await mailedLink(request, financeEmail));
  const { page: desk } = finance;
  await desk.getByRole('menuitem', { name: 'Attention queue' }).click();
  const queued = desk
    .getByTestId('attention-payments')
    .getByRole('row', { name: new RegExp(customer.account) });
  await expect(queued).toContainText('Order already paid');
  await queued.getByRole('button', { name: 'Refund' }).click();
  const dialog = desk.getByRole('dialog', { name: 'Refund' });
  await dialog.getByLabel('Why (kept in the audit log)').fill('Charged twice for one order');
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(dialog).toBeHidden();
  await expect(queued).toHaveCount(0);

  // The payments screen shows it refunded; the order's paid time is untouched.
  await desk.getByRole('menuitem', { name: 'Payments and refunds' }).click();
  await expect(desk.getByTestId('payments').getByRole('row', { name: /second-/ })).toContainText('Refunded');
  expect((await userInfo(request, customer.token)).expire_user).toBe(paidUntil);
  await saveScreenshot(desk, 'payments', 'en');
  await finance.context.close();
});

const SCREENS = [
  'dashboard',
  'users',
  'attention',
  'orders',
  'payments',
  'settings',
  'staff',
  'mail',
  'jobs',
  'audit',
];

test('the console speaks each language, and the choice stays; every screen in en and zh', async ({
  page,
  request,
}) => {
  // The screens before signing in: the set-up link's and the sign-in's.
  const email = address('owner');
  const link = await ownerLink(request, email);
  for (const language of ['en', 'zh'] as const) {
    await page.goto('/admin/sign-in');
    await page.evaluate((chosen) => localStorage.setItem('skyway_admin_language', chosen), language);
    await page.goto(link);
    await expect(page.getByTestId('totp-secret')).toBeVisible();
    await saveScreenshot(page, 'setup', language);
    await page.goto('/admin/sign-in');
    await expect(page.locator('form')).toBeVisible();
    await saveScreenshot(page, 'sign-in', language);
  }
  await page.evaluate(() => localStorage.setItem('skyway_admin_language', 'en'));
  const login = await setUpStaff(page, link, email);
  await page.getByRole('button', { name: 'I have saved them: sign in' }).click();
  await signIn(page, login);
  for (const language of ['en', 'zh'] as const) {
    await page.evaluate((chosen) => localStorage.setItem('skyway_admin_language', chosen), language);
    for (const screen of SCREENS) {
      await page.goto(`/admin/${screen === 'dashboard' ? '' : screen}`);
      await expect(page.locator('.ant-spin-spinning')).toHaveCount(0);
      await expect(page.locator('.ant-layout-content')).not.toBeEmpty();
      // The dashboard's chart, drawn by ECharts from its own chunk.
      if (screen === 'dashboard')
        await expect(page.getByTestId('dashboard-chart').locator('canvas')).toBeVisible();
      await saveScreenshot(page, screen, language);
    }
  }
  await expect(page.getByRole('menuitem', { name: '审计日志' })).toBeVisible();
  await page.getByLabel('language').click();
  await page.locator('.ant-select-dropdown:visible').getByTitle('繁體中文').click();
  await expect(page.getByRole('menuitem', { name: '稽核日誌' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('menuitem', { name: '使用者' })).toBeVisible();
  await page.getByLabel('language').click();
  await page.locator('.ant-select-dropdown:visible').getByTitle('English').click();
  await expect(page.getByRole('menuitem', { name: 'Users' })).toBeVisible();
});
