import type { Locator, Page } from '@playwright/test';
import { LANGUAGES } from '@skyway/shared/languages';
import {
  expect,
  expectNoAccessibilityViolations,
  freshAccount,
  signInAs,
  test,
  useLanguage,
} from './support.ts';

const PAGES = ['/download', '/privacy', '/service', '/use'];
/** Console pages, signed in; each is checked once its content from the server is on screen. */
const CONSOLE_PAGES: { url: string; ready: (page: Page) => Locator }[] = [
  { url: '/buy', ready: (page) => page.locator('.plan-card') },
  // Orders, or the empty state that a new account has (a loading table is not ready).
  { url: '/order', ready: (page) => page.locator('.ant-table-row, [data-testid="no-orders"]') },
  { url: '/invite', ready: (page) => page.getByTestId('share-link') },
  // A new account has no access: the page offers to buy.
  { url: '/nodes', ready: (page) => page.locator('.ant-empty') },
];

for (const language of LANGUAGES) {
  for (const url of PAGES) {
    test(`${url} in ${language} has no accessibility violations`, async ({ page }) => {
      await useLanguage(page, language);
      await page.goto(url);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expectNoAccessibilityViolations(page);
    });
  }

  for (const { url, ready } of CONSOLE_PAGES) {
    test(`${url} in ${language}, signed in, has no accessibility violations`, async ({ page, request }) => {
      await useLanguage(page, language);
      await signInAs(page, await freshAccount(request));
      await page.goto(url);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(ready(page).first()).toBeVisible();
      await expect(page.locator('.ant-spin-spinning, .ant-skeleton')).toHaveCount(0);
      await expectNoAccessibilityViolations(page);
    });
  }
}
