import { randomBytes } from 'node:crypto';
import type { Locator, Page } from '@playwright/test';
import { formatExpiry } from '../../web/src/lib/dates.ts';
import { callBody, expect, freshAccount, signInAs, test, userInfo } from '../../web/e2e/support.ts';
import {
  chargedTwice,
  customerWithFetchedSlot,
  mailedLink,
  memberCall,
  ownerLink,
  saveScreenshot,
  setUpStaff,
  signedInOwner,
  signIn,
  staffBrowser,
} from './support.ts';

const DAY = 86_400;
const address = (role: string) => `${role}-${randomBytes(5).toString('hex')}@example.com`;
const REALITY_KEY = 'Z84J2IelR9ch3k8VtlVhhs5ycBUlXA7wHBWcBrjqnAw';

test.beforeEach(({ consoleErrors }) => {
  // The browser logs the 401 of the session check that finds nobody signed in.
  consoleErrors.allow(/status of 401/);
});

/** Invites a member from the Staff page; the list shows them as invited. */
async function invite(page: Page, email: string, role: string) {
  await page.getByRole('menuitem', { name: 'Staff' }).click();
  await page.getByRole('button', { name: 'Invite staff' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Invite staff' });
  await dialog.getByLabel('E-mail').fill(email);
  await choose(page, dialog, page.getByLabel('Role', { exact: true }), role);
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
  await signedInOwner(page, request);

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
  await signedInOwner(page, request);
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

  const found = await memberCall(desk, 'GET', `/users?q=${encodeURIComponent(customer.account)}`);
  const id = (found.data.items as { id: string }[])[0]?.id;
  const refused = await memberCall(desk, 'POST', `/users/${id}/time`, {
    days: 3,
    reason: 'not mine to give',
  });
  expect(refused).toMatchObject({ code: 403, data: { reason: 'permission_denied' } });
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

  await signedInOwner(page, request);
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

/**
 * Picks an option of the antd select `select` (a locator within one form item of `scope`, such as
 * `page.getByLabel('Role')` or `page.locator('#security')`), until the field shows it and its list is
 * closed: a click on an option while its list is still moving in (or another one still fading out)
 * can miss, and a list left open covers what the journey clicks next.
 */
async function choose(page: Page, scope: Locator, select: Locator, option: string) {
  const field = scope.locator('.ant-form-item', { has: select });
  const combobox = field.getByRole('combobox');
  const list = page.locator('.ant-select-dropdown:visible');
  await expect(async () => {
    if (!(await field.textContent())?.includes(option)) {
      if ((await list.count()) === 0) await combobox.click();
      await list.getByTitle(option, { exact: true }).click({ timeout: 2_000 });
      // The chosen option shows in the field; the list's options are elsewhere in the page.
      await expect(field).toContainText(option, { timeout: 2_000 });
    }
    // Escape closes the list and nothing else (a multiple select keeps it open after a pick).
    if ((await list.count()) > 0) await combobox.press('Escape');
    await expect(list).toHaveCount(0, { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
}

/** Opens an account's page from the Users screen. */
async function openAccount(desk: Page, account: string) {
  await desk.getByRole('menuitem', { name: 'Users' }).click();
  await desk.getByPlaceholder('Part of an e-mail address').fill(account);
  await desk.getByRole('button', { name: 'Search' }).click();
  await desk.getByRole('link', { name: account }).click();
}

test('an admin adds a node and a VLESS inbound, a viewer sees them without a control, and a customer’s slot and its fetch are on their page', async ({
  page,
  request,
  browser,
}) => {
  // Three members of staff set up, each in a browser of their own.
  test.setTimeout(120_000);
  const customer = await customerWithFetchedSlot(request, 'mihomo/1.19.0');
  await signedInOwner(page, request);
  const adminEmail = address('admin');
  const viewerEmail = address('viewer');
  await invite(page, adminEmail, 'Admin');
  await invite(page, viewerEmail, 'Viewer');
  const admin = await staffBrowser(browser, adminEmail, await mailedLink(request, adminEmail));
  const { page: desk } = admin;

  await desk.getByRole('menuitem', { name: 'Nodes' }).click();
  await desk.getByRole('button', { name: 'Add node' }).click();
  const nodeForm = desk.getByRole('dialog', { name: 'Add node' });
  const name = `Tokyo ${randomBytes(3).toString('hex')}`;
  await nodeForm.getByLabel('Name').fill(name);
  await nodeForm.getByLabel('Region').fill('JP');
  await nodeForm.getByLabel('Host').fill('not a host!');
  await choose(desk, nodeForm, desk.getByLabel('Plans', { exact: true }), 'Yearly');
  await nodeForm.getByRole('button', { name: 'Save' }).click();
  // The server's refusal, under the field it names, in the member's language.
  await expect(nodeForm.locator('.ant-form-item-has-error')).toContainText('host is not valid');
  await nodeForm.getByLabel('Host').fill('tokyo1.example.com');
  await nodeForm.getByRole('button', { name: 'Save' }).click();
  await expect(nodeForm).toBeHidden();
  const row = desk.getByTestId('nodes').getByRole('row', { name: new RegExp(name) });
  await expect(row).toContainText('tokyo1.example.com');
  await expect(row).toContainText('Yearly');

  const inbounds = desk.getByTestId(`inbounds-${name}`);
  await inbounds.getByRole('button', { name: 'Add inbound' }).click();
  const inboundForm = desk.getByRole('dialog', { name: `Add inbound · ${name}` });
  // Only what goes together is offered: Trojan is TLS only, Shadowsocks 2022 plain TCP with its method.
  await choose(desk, inboundForm, desk.getByLabel('Protocol', { exact: true }), 'Trojan');
  await inboundForm.getByLabel('Security', { exact: true }).click();
  await expect(desk.locator('.ant-select-dropdown:visible .ant-select-item-option')).toHaveText(['TLS']);
  await desk.keyboard.press('Escape');
  await choose(desk, inboundForm, desk.getByLabel('Protocol', { exact: true }), 'Shadowsocks 2022');
  await expect(inboundForm.getByLabel('Method')).toBeVisible();
  await expect(inboundForm.getByLabel('Server name (SNI)')).toHaveCount(0);
  await choose(desk, inboundForm, desk.getByLabel('Protocol', { exact: true }), 'VLESS');
  await expect(inboundForm.getByLabel('Method')).toHaveCount(0);
  await choose(desk, inboundForm, desk.getByLabel('Security', { exact: true }), 'REALITY');
  await inboundForm.getByLabel('Server name (SNI)').fill('www.microsoft.com');
  await inboundForm.getByLabel('REALITY public key').fill('not-a-key');
  await inboundForm.getByLabel('REALITY short ID').fill('6ba85179e30d4fc2');
  await choose(desk, inboundForm, desk.getByLabel('Flow', { exact: true }), 'xtls-rprx-vision');
  await inboundForm.getByRole('button', { name: 'Save' }).click();
  await expect(inboundForm.locator('.ant-form-item-has-error')).toContainText(
    'REALITY public key is not valid',
  );
  await inboundForm.getByLabel('REALITY public key').fill(REALITY_KEY);
  await inboundForm.getByRole('button', { name: 'Save' }).click();
  await expect(inboundForm).toBeHidden();
  const vless = inbounds.getByRole('row', { name: /VLESS/ });
  await expect(vless).toContainText('443');
  await expect(vless).toContainText('REALITY');
  await expect(vless).toContainText('xtls-rprx-vision');
  // Changed as a whole: the form opens with what it holds, REALITY's key included.
  await vless.getByRole('button', { name: 'Edit', exact: true }).click();
  const editForm = desk.getByRole('dialog', { name: `Edit inbound · ${name}` });
  await expect(editForm.getByLabel('REALITY public key')).toHaveValue(REALITY_KEY);
  await editForm.getByLabel('Port', { exact: true }).fill('8443');
  await editForm.getByRole('button', { name: 'Save' }).click();
  await expect(editForm).toBeHidden();
  await expect(vless).toContainText('8443');
  await expect(vless).toContainText('REALITY');
  // Its count in the node's row (after the expander, number, name, region, host, switch, order, plans,
  // fewest, rate).
  await expect(row.getByRole('cell').nth(10)).toHaveText('1');

  // The node's agent gets a token, shown once, which the node API takes; a new one refuses the old.
  await expect(row).toContainText('No token');
  await row.getByRole('button', { name: 'Issue token' }).click();
  const shown = desk.getByRole('dialog', { name: `API token of ${name}` });
  const token = (await shown.getByTestId('node-token').textContent()) ?? '';
  expect(token).toMatch(/^[\w-]{43}$/);
  const nodeConfig = (bearer: string) =>
    request.get('/node/v1/config', { headers: { authorization: `Bearer ${bearer}`, 'x-node-api': '1.0' } });
  expect((await nodeConfig(token)).status()).toBe(200);
  await shown.getByRole('button', { name: 'OK' }).click();
  await expect(row).toContainText('Not connected yet');
  await row.getByRole('button', { name: 'New token' }).click();
  await desk.getByRole('dialog', { name: 'New token' }).getByRole('button', { name: 'New token' }).click();
  const rotated = (await desk.getByTestId('node-token').textContent()) ?? '';
  expect(rotated).not.toBe(token);
  expect((await nodeConfig(token)).status()).toBe(401);
  expect((await nodeConfig(rotated)).status()).toBe(200);
  await desk
    .getByRole('dialog', { name: `API token of ${name}` })
    .getByRole('button', { name: 'OK' })
    .click();

  // The viewer sees the node and its inbound, and nothing that would change them.
  const viewer = await staffBrowser(browser, viewerEmail, await mailedLink(request, viewerEmail));
  const { page: reader } = viewer;
  await reader.getByRole('menuitem', { name: 'Nodes' }).click();
  await expect(reader.getByTestId('nodes').getByRole('row', { name: new RegExp(name) })).toContainText(
    'tokyo1.example.com',
  );
  await expect(reader.getByTestId(`inbounds-${name}`)).toContainText('REALITY');
  for (const control of ['Add node', 'Add inbound', 'Edit', 'Delete']) {
    await expect(reader.getByRole('button', { name: control, exact: true })).toHaveCount(0);
  }
  await expect(reader.getByRole('switch')).toHaveCount(0);
  const refused = await memberCall(reader, 'POST', '/nodes', {
    name: 'x',
    region: 'HK',
    host: 'hk.example.com',
  });
  expect(refused).toMatchObject({ code: 403, data: { reason: 'permission_denied' } });

  // The customer's slot and its link's fetch, on their page.
  await openAccount(reader, customer.account);
  await reader.getByRole('tab', { name: 'Devices' }).click();
  const slot = reader.getByTestId('section-devices').getByRole('row', { name: /Active/ });
  await expect(slot).toContainText('0 B');
  await expect(slot.getByRole('cell').first()).toHaveText('1');
  await reader.getByRole('tab', { name: 'Subscription fetches' }).click();
  const fetch = reader.getByTestId('section-fetches').getByRole('row', { name: /mihomo/ });
  await expect(fetch).toContainText('mihomo/1.19.0');
  await expect(fetch).toContainText('Clash Meta (YAML)');
  await viewer.context.close();

  // The admin switches the node off, then deletes it after confirming.
  await row.getByRole('switch', { name: `Enabled ${name}` }).click();
  await expect(row.getByRole('switch')).not.toBeChecked();
  await row.getByRole('button', { name: 'Delete', exact: true }).click();
  const confirm = desk.getByRole('dialog', { name: 'Delete node' });
  await expect(confirm).toContainText(`Delete ${name} and its 1 inbounds?`);
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(row).toHaveCount(0);
  await admin.context.close();
});

const SCREENS = [
  'dashboard',
  'users',
  'attention',
  'orders',
  'payments',
  'gateways',
  'redeem-codes',
  'nodes',
  'settings',
  'staff',
  'mail',
  'jobs',
  'audit',
];

// A journey per language: every screen of the two takes longer than a journey may on a busy machine.
for (const language of ['en', 'zh'] as const) {
  test(`every screen in ${language}, those before signing in too`, async ({ page, request }) => {
    // Sixteen full-page screenshots and an owner set up: 45 s on a quiet machine, a minute in a full run.
    test.setTimeout(120_000);
    // The screens before signing in: the set-up link's and the sign-in's.
    const email = address('owner');
    const link = await ownerLink(request, email);
    await page.goto('/admin/sign-in');
    await page.evaluate((chosen) => localStorage.setItem('skyway_admin_language', chosen), language);
    await page.goto(link);
    await expect(page.getByTestId('totp-secret')).toBeVisible();
    await saveScreenshot(page, 'setup', language);
    await page.goto('/admin/sign-in');
    await expect(page.locator('form')).toBeVisible();
    await saveScreenshot(page, 'sign-in', language);
    await page.evaluate(() => localStorage.setItem('skyway_admin_language', 'en'));
    const login = await setUpStaff(page, link, email);
    await page.getByRole('button', { name: 'I have saved them: sign in' }).click();
    await signIn(page, login);
    // Something on the new screens: a node with two inbounds, and a customer whose app fetched its link.
    const nodeName = `Hong Kong ${language}`;
    const node = await memberCall(page, 'POST', '/nodes', {
      name: nodeName,
      region: 'HK',
      host: `hk-${language}.example.com`,
    });
    for (const inbound of [
      {
        protocol: 'vless',
        port: 443,
        transport: 'tcp',
        security: 'tls',
        server_name: `hk-${language}.example.com`,
        flow: 'xtls-rprx-vision',
      },
      {
        protocol: 'shadowsocks',
        port: 8388,
        transport: 'tcp',
        security: 'none',
        method: '2022-blake3-aes-256-gcm',
      },
    ]) {
      expect(
        await memberCall(page, 'POST', `/nodes/${node.data.id as string}/inbounds`, inbound),
      ).toMatchObject({ code: 200 });
    }
    const customer = await customerWithFetchedSlot(
      request,
      'Shadowrocket/2070 CFNetwork/1410.0.3 Darwin/22.6.0',
    );
    const found = await memberCall(page, 'GET', `/users?q=${encodeURIComponent(customer.account)}`);
    const customerId = (found.data.items as { id: string }[])[0]?.id;

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
    // The node's inbound form, with what REALITY asks for.
    await page.goto('/admin/nodes');
    await page.getByTestId(`inbounds-${nodeName}`).getByRole('button').first().click();
    const inboundForm = page.getByTestId('inbound-form');
    await choose(page, inboundForm, page.locator('#security'), 'REALITY');
    await expect(inboundForm.locator('#reality_public_key')).toBeVisible();
    await saveScreenshot(page, 'inbound-form', language);
    await page.keyboard.press('Escape');
    await expect(inboundForm).toBeHidden();
    // An account's page with its devices, then with its link's fetches.
    await page.goto(`/admin/users/${customerId}`);
    for (const section of ['devices', 'fetches']) {
      await page.locator(`.ant-tabs-tab[data-node-key="${section}"]`).click();
      await expect(page.getByTestId(`section-${section}`).locator('.ant-table-row')).toHaveCount(1);
      await saveScreenshot(page, `user-${section}`, language);
    }
  });
}

test('the console speaks each language, and the choice stays', async ({ page, request }) => {
  await signedInOwner(page, request);
  await page.getByLabel('language').click();
  await page.locator('.ant-select-dropdown:visible').getByTitle('简体中文').click();
  await expect(page.getByRole('menuitem', { name: '审计日志' })).toBeVisible();
  await page.getByLabel('language').click();
  await page.locator('.ant-select-dropdown:visible').getByTitle('繁體中文').click();
  await expect(page.getByRole('menuitem', { name: '稽核日誌' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('menuitem', { name: '使用者' })).toBeVisible();
  await page.getByLabel('language').click();
  await page.locator('.ant-select-dropdown:visible').getByTitle('English').click();
  await expect(page.getByRole('menuitem', { name: 'Users' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('menuitem', { name: 'Users' })).toBeVisible();
});
