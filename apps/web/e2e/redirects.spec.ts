import { expect, freshAccount, signInAs, test } from './support.ts';

test.describe('redirects', () => {
  test('/ leads through /website to /download', async ({ page }) => {
    await page.goto('/');
    await expect(page).toHaveURL('/download');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  });

  test('/website leads to /download', async ({ page }) => {
    await page.goto('/website');
    await expect(page).toHaveURL('/download');
  });

  test('/backstage leads a signed-in user to /buy', async ({ page, request }) => {
    await signInAs(page, await freshAccount(request));
    await page.goto('/backstage');
    await expect(page).toHaveURL('/buy');
    await expect(page.getByRole('heading', { level: 1, name: 'Buy subscription' })).toBeVisible();
  });

  test('an unknown path shows the not-found page to a signed-in user, with a link home', async ({
    page,
    request,
  }) => {
    await signInAs(page, await freshAccount(request));
    await page.goto('/no/such/page');
    await expect(page).toHaveURL('/404');
    await expect(page.getByText('404', { exact: true })).toBeVisible();
    await page.getByRole('link', { name: 'Back to home' }).click();
    await expect(page).toHaveURL('/download');
  });
});
