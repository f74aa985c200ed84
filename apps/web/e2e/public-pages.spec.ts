import { HTML_LANG, LANGUAGES, type Language } from '@skyway/shared/languages';
import type { Page } from '@playwright/test';
import { expect, type Json, locale, saveScreenshot, test, useLanguage } from './support.ts';

// What the server that journey-server.ts starts is configured with (the defaults).
const SITE = 'Skyway';
const EMAIL = 'support@example.com';

const LEGAL_PAGES = { '/privacy': 'privacy', '/service': 'service', '/use': 'use' } as const;
const WIDTHS = [375, 1280];

/** Every text of a translation subtree that a reader sees: all strings but meta data and anchor ids. */
function visibleTexts(node: Json, key = ''): string[] {
  if (typeof node === 'string') {
    if (key === 'description' || key === 'id') return [];
    return [node.replaceAll('{{site}}', SITE).replaceAll('{{email}}', EMAIL)];
  }
  if (Array.isArray(node)) return node.flatMap((item) => visibleTexts(item, key));
  if (node && typeof node === 'object') return Object.entries(node).flatMap(([k, v]) => visibleTexts(v, k));
  return [];
}

const squash = (text: string) => text.replace(/\s+/g, ' ').trim();

async function openIn(page: Page, language: Language, url: string) {
  await useLanguage(page, language);
  await page.goto(url);
  await expect(page.locator('html')).toHaveAttribute('lang', HTML_LANG[language]);
}

async function expectOneH1(page: Page, name: string) {
  await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(name);
}

for (const language of LANGUAGES) {
  test.describe(`public pages in ${language}`, () => {
    for (const [url, document] of Object.entries(LEGAL_PAGES)) {
      test(`${url} shows the whole document with the support address`, async ({ page }) => {
        const doc = locale(language, `legal-${document}`);
        await openIn(page, language, url);
        await expectOneH1(page, String(doc.title));
        await expect(page).toHaveTitle(new RegExp(`^${String(doc.title)}`));
        await expect(page.locator('meta[name="description"]')).toHaveAttribute(
          'content',
          String(doc.description).replaceAll('{{site}}', SITE),
        );
        const shown = squash(await page.getByRole('main').innerText());
        for (const text of visibleTexts(doc)) expect(shown).toContain(squash(text));
        await expect(page.getByRole('main').getByRole('link', { name: EMAIL }).first()).toHaveAttribute(
          'href',
          `mailto:${EMAIL}`,
        );
        expect(shown).not.toMatch(/\{\{|\}\}/);
      });
    }

    test('/download shows the product, every platform and a way to register', async ({ page }) => {
      const texts = locale(language, 'download');
      await openIn(page, language, '/download');
      const hero = texts.hero as Record<string, Json>;
      await expectOneH1(page, String(hero.title));
      const main = page.getByRole('main');
      for (const platform of ['windows', 'macos', 'android', 'ios']) {
        const name = String((texts.platforms as Record<string, Json>)[platform]);
        await expect(main.getByRole('heading', { name, exact: true })).toBeVisible();
        await expect(main.locator(`a[href="https://example.com/download/${platform}"]`)).toHaveCount(1);
      }
      await expect(main.locator('a[href="/login?formType=regist"]').first()).toBeVisible();
      expect(squash(await main.innerText())).not.toMatch(/\{\{|\}\}/);
    });

    test('screenshots of every public page at 375 and 1280 px', async ({ page }) => {
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 900 });
        for (const url of ['/download', ...Object.keys(LEGAL_PAGES), '/login']) {
          await openIn(page, language, url);
          await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
          await saveScreenshot(page, url.slice(1), language, width);
        }
      }
    });
  });
}
