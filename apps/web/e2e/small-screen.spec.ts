import { expect, freshAccount, signInAs, test } from './support.ts';

test.use({ viewport: { width: 375, height: 812 } });

test('the console side menu is hidden until the menu button is pressed, and closes on navigation', async ({
  page,
  request,
}) => {
  await signInAs(page, await freshAccount(request));
  await page.goto('/buy');
  const sideMenu = page.getByRole('navigation', { name: 'Console menu' });
  await expect(sideMenu).toBeHidden();

  await page.getByRole('button', { name: 'Open menu' }).click();
  await expect(sideMenu).toBeVisible();
  await expect(sideMenu.getByRole('link', { name: 'Home' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Claim free trial' })).toBeVisible();

  await sideMenu.getByRole('link', { name: 'My orders' }).click();
  await expect(page).toHaveURL('/order');
  await expect(sideMenu).toBeHidden();
  await expect(page.getByRole('banner').getByRole('heading', { name: 'My orders' })).toBeVisible();
});

test('the website menu is hidden until the menu button is pressed, and closes on navigation', async ({
  page,
}) => {
  await page.goto('/download');
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  await expect(nav).toBeHidden();

  await page.getByRole('button', { name: 'Open menu' }).click();
  await expect(nav).toBeVisible();
  await nav.getByRole('link', { name: 'Terms of use' }).click();
  await expect(page).toHaveURL('/use');
  await expect(nav).toBeHidden();
});
