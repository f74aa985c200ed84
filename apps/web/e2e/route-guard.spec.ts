import { type Account, expect, freshAccount, signInAs, test } from './support.ts';

test.describe('route guard, signed out', () => {
  for (const target of ['/buy', '/order', '/invite', '/backstage', '/404', '/no-such-page']) {
    test(`${target} sends the visitor to /login`, async ({ page }) => {
      await page.goto(target);
      await expect(page).toHaveURL('/login');
      await expect(page.getByRole('heading', { level: 1, name: 'Log in' })).toBeVisible();
    });
  }

  for (const [target, title] of [
    ['/privacy', 'Privacy policy'],
    ['/service', 'Service agreement'],
    ['/use', 'Terms of use'],
    ['/download', 'Fast, stable access to the global internet'],
  ] as const) {
    test(`${target} stays open`, async ({ page }) => {
      await page.goto(target);
      await expect(page).toHaveURL(target);
      await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    });
  }

  test('the register link opens /login in registration mode and keeps the invite code', async ({ page }) => {
    await page.goto('/login?formType=regist&invite_code=ABC123');
    await expect(page.getByRole('heading', { level: 1, name: 'Create an account' })).toBeVisible();
    await expect(page.getByText('ABC123')).toBeVisible();
    await page
      .getByRole('link', { name: /Log in$/ })
      .last()
      .click();
    await expect(page).toHaveURL('/login');
    await page
      .getByRole('link', { name: /Register$/ })
      .last()
      .click();
    await expect(page).toHaveURL('/login?formType=regist');
    await expect(page.getByText('ABC123')).toBeVisible();
  });
});

test.describe('route guard, signed in', () => {
  let account: Account;

  test.beforeEach(async ({ page, request }) => {
    account = await freshAccount(request);
    await signInAs(page, account);
  });

  test('/login sends the user to /, which leads to /download', async ({ page }) => {
    await page.goto('/login');
    await expect(page).toHaveURL('/download');
    await expect(page.getByRole('link', { name: 'Console', exact: true })).toBeVisible();
  });

  for (const [target, title] of [
    ['/buy', 'Buy subscription'],
    ['/order', 'My orders'],
    ['/invite', 'My invitations'],
    ['/nodes', 'Server status'],
  ] as const) {
    test(`${target} opens in the console`, async ({ page }) => {
      await page.goto(target);
      await expect(page).toHaveURL(target);
      await expect(page.getByRole('banner').getByRole('heading', { level: 1, name: title })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Account menu' })).toContainText(account.account);
    });
  }

  test('the side menu moves between console pages', async ({ page }) => {
    await page.goto('/buy');
    const menu = page.getByRole('navigation', { name: 'Console menu' });
    await menu.getByRole('link', { name: 'My orders' }).click();
    await expect(page).toHaveURL('/order');
    await menu.getByRole('link', { name: 'My invitations' }).click();
    await expect(page).toHaveURL('/invite');
    await menu.getByRole('link', { name: 'Server status' }).click();
    await expect(page).toHaveURL('/nodes');
  });
});
