import AxeBuilder from '@axe-core/playwright';
import { LANGUAGES } from '@skyway/shared/languages';
import { STORAGE_KEYS } from '../src/lib/storage-keys.ts';
import { expect, test } from './support.ts';

// WCAG 2.1 A and AA: landmarks, headings, names and alt text, contrast, keyboard-reachable controls.
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];
const PAGES = ['/download', '/privacy', '/service', '/use'];

for (const language of LANGUAGES) {
  for (const url of PAGES) {
    test(`${url} in ${language} has no accessibility violations`, async ({ page }) => {
      await page.addInitScript(({ key, language }) => localStorage.setItem(key, language), {
        key: STORAGE_KEYS.language,
        language,
      });
      await page.goto(url);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      const { violations } = await new AxeBuilder({ page }).withTags(TAGS).analyze();
      expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual(
        [],
      );
    });
  }
}
