import { expect, freshAccount, signInAs, test } from './support.ts';

test.describe('website', () => {
  test('the top bar marks the current page, and every page sets its title and description', async ({
    page,
  }) => {
    await page.goto('/service');
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    await expect(nav.getByRole('link', { name: 'Service agreement' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await expect(nav.getByRole('link', { name: 'Download' })).not.toHaveAttribute('aria-current', 'page');
    await expect(page).toHaveTitle(/^Service agreement · /);
    await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /subscription service/);

    await nav.getByRole('link', { name: 'Download' }).click();
    await expect(page).toHaveTitle(/^Download · /);
    await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /Windows, macOS/);
  });

  test('signed out, the top bar offers Login and Register', async ({ page }) => {
    await page.goto('/download');
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    await nav.getByRole('link', { name: 'Register' }).click();
    await expect(page).toHaveURL('/login?formType=regist');
    await nav.getByRole('link', { name: 'Log in' }).click();
    await expect(page).toHaveURL('/login');
  });

  test('signed in, the top bar offers the console', async ({ page, request }) => {
    await signInAs(page, await freshAccount(request));
    await page.goto('/privacy');
    await page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: 'Console' })
      .click();
    await expect(page).toHaveURL('/buy');
  });

  test('the footer links the three legal pages, and each navigation starts at the top', async ({ page }) => {
    await page.goto('/privacy');
    await expect(page.getByRole('heading', { level: 1, name: 'Privacy policy' })).toBeVisible();
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await expect(page.locator('.site-header')).toHaveClass(/site-header--scrolled/);
    const footer = page.getByRole('contentinfo');
    await footer.getByRole('link', { name: 'Terms of use' }).click();
    await expect(page).toHaveURL('/use');
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    await expect(page.locator('.site-header')).not.toHaveClass(/site-header--scrolled/);
    await expect(footer.getByRole('link', { name: 'Privacy policy' })).toBeVisible();
    await expect(footer.getByRole('link', { name: 'Service agreement' })).toBeVisible();
  });
});

test('every top bar and footer link reaches its page', async ({ page }) => {
  const legal = [
    { name: 'Privacy policy', url: '/privacy' },
    { name: 'Service agreement', url: '/service' },
    { name: 'Terms of use', url: '/use' },
  ];
  const links = [
    ...[{ name: 'Download', url: '/download' }, ...legal].map((target) => ({ ...target, region: 'nav' })),
    ...legal.map((target) => ({ ...target, region: 'footer' })),
  ];
  await page.goto('/use');
  for (const { name, url, region } of links) {
    const scope =
      region === 'nav'
        ? page.getByRole('navigation', { name: 'Main navigation' })
        : page.getByRole('contentinfo');
    await scope.getByRole('link', { name, exact: true }).click();
    await expect(page).toHaveURL(url);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  }
});
