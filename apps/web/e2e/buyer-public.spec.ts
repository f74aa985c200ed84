import type { Locator } from '@playwright/test';
import type { Language } from '@skyway/shared/languages';
import { formatYuan } from '@skyway/shared/money';
import type { PlanList } from '@skyway/shared/plans';
import {
  callBody,
  expect,
  expectNoAccessibilityViolations,
  type Json,
  locale,
  test,
  useLanguage,
} from './support.ts';

// What a Chinese- or English-speaking visitor sees before having an account, on a phone and a
// desktop: the prices, a headline set as a typesetter would, and a sign-in form that says what went
// wrong where the visitor looks.
const LANGUAGES: Language[] = ['zh', 'en'];
const WIDTHS = [375, 1280];

const texts = (language: Language, namespace: string, section: string) =>
  locale(language, namespace)[section] as Record<string, Json>;

/** The lines a heading is set in, as the browser laid them out, zero-width spaces left out. */
async function lines(heading: Locator): Promise<string[]> {
  return heading.evaluate((element) => {
    const out: { top: number; text: string }[] = [];
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const content = node.textContent ?? '';
      for (let i = 0; i < content.length; i++) {
        if (content[i] === '\u200b') continue;
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const { top, width } = range.getBoundingClientRect();
        if (width === 0) continue;
        const line = out.find((item) => Math.abs(item.top - top) < 4);
        if (line) line.text += content[i];
        else out.push({ top, text: content[i] ?? '' });
      }
    }
    return out.sort((a, b) => a.top - b.top).map((line) => line.text.trim());
  });
}

const height = async (locator: Locator) => (await locator.boundingBox())?.height ?? 0;

for (const language of LANGUAGES) {
  for (const width of WIDTHS) {
    test.describe(`${language} at ${width} px`, () => {
      test.use({ viewport: { width, height: 900 } });

      test.beforeEach(async ({ page }) => {
        await useLanguage(page, language);
      });

      test('/download shows the prices per connection, the trial and the ways to pay', async ({
        page,
        request,
      }) => {
        const pricing = texts(language, 'download', 'pricing');
        const { plans } = (
          (await (await request.post('/web/plan/list', { data: callBody() })).json()) as { data: PlanList }
        ).data;
        await page.goto('/download');
        const section = page.getByRole('region', { name: String(pricing.title) });
        await section.scrollIntoViewIfNeeded();
        for (const plan of plans) {
          const periods = pricing.periods as Record<string, string>;
          const tile = section.getByRole('listitem').filter({
            has: page.getByRole('heading', { name: periods[plan.period], exact: true }),
          });
          await expect(tile).toContainText(formatYuan(plan.unit_price));
        }
        const oneDay = language === 'zh' ? '1 天' : '1 day';
        await expect(section).toContainText(String(pricing.trial).replace('{{duration}}', oneDay));
        const methods = texts(language, 'common', 'payMethods') as Record<string, string>;
        for (const method of ['alipay', 'wechat_pay', 'card'])
          await expect(section).toContainText(methods[method] ?? '');
        await expect(section.locator('a[href="/login?formType=regist"]')).toBeVisible();
        await expectNoAccessibilityViolations(page);
      });

      test('/download leaves the trial out of the prices while the operator has closed it', async ({
        page,
        operatorSettings,
      }) => {
        await operatorSettings.set('open_trial', '0');
        await page.goto('/download');
        const section = page.getByRole('region', {
          name: String(texts(language, 'download', 'pricing').title),
        });
        await expect(section.getByRole('listitem').first()).toBeVisible();
        await expect(section.locator('.pricing__trial')).toHaveCount(0);
      });

      test('the headline keeps its words whole and no character alone on a line', async ({ page }) => {
        await page.goto('/download');
        const set = await lines(page.getByRole('heading', { level: 1 }));
        expect(set.length).toBeGreaterThan(0);
        for (const line of set) expect(line.length, `a line of ${JSON.stringify(set)}`).toBeGreaterThan(1);
        if (language === 'zh') expect(set.some((line) => line.includes('互联网'))).toBe(true);
      });

      test('a failed sign-in is said next to the form as well, and the form is set evenly', async ({
        page,
        consoleErrors,
      }) => {
        consoleErrors.allow(/status of 400/);
        const login = texts(language, 'login', 'login');
        const fields = texts(language, 'login', 'fields');
        await page.goto('/login');
        const submit = page.locator('form button[type="submit"]');
        // No space pushed into a two-character button ("登 录").
        await expect(submit).toHaveText(String(login.submit));

        await page.getByLabel(String(fields.email), { exact: true }).fill('nobody@example.com');
        const password = page.getByLabel(String(fields.password), { exact: true });
        await password.fill('wrong-password-1');
        await submit.click();
        const wrong = language === 'zh' ? '邮箱或密码错误' : 'Wrong e-mail address or password';
        await expect(page.locator('form [role="alert"]')).toHaveText(wrong);
        await expect(page.locator('.ant-message-notice')).toHaveText(wrong);
        await password.fill('another-password-2');
        await expect(page.locator('form [role="alert"]')).toHaveCount(0);

        // The code field and its button are one height.
        await page.goto('/login?formType=regist');
        const code = page.getByLabel(String(fields.code));
        const get = page.getByRole('button', { name: String(texts(language, 'common', 'emailCode').get) });
        await expect(get).toBeVisible();
        expect(Math.abs((await height(code)) - (await height(get)))).toBeLessThan(0.5);
      });
    });
  }
}
