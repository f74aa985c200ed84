import { STORAGE_KEYS } from '../src/lib/storage-keys.ts';
import { expect, test } from './support.ts';

test.describe('language', () => {
  test('a choice is stored, reloads the page and survives another reload', async ({ page }) => {
    await page.goto('/privacy');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.getByRole('heading', { level: 1, name: 'Privacy policy' })).toBeVisible();

    await page.getByRole('button', { name: /Language/ }).click();
    await page.getByRole('menuitemradio', { name: '简体中文' }).click();

    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
    await expect(page.getByRole('heading', { level: 1, name: '隐私政策' })).toBeVisible();
    await expect(page).toHaveTitle(/^隐私政策/);
    expect(await page.evaluate((key) => localStorage.getItem(key), STORAGE_KEYS.language)).toBe('zh');

    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
    await expect(page.getByRole('link', { name: '服务协议' }).first()).toBeVisible();
  });

  test('the language menu works from the keyboard', async ({ page }) => {
    await page.goto('/download');
    const button = page.getByRole('button', { name: /Language/ });
    await button.focus();
    await page.keyboard.press('ArrowDown');
    await expect(page.getByRole('menuitemradio', { name: 'English' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(button).toBeFocused();
    await expect(page.getByRole('menu')).toHaveCount(0);

    await page.keyboard.press('Enter');
    await page.keyboard.press('End');
    await expect(page.getByRole('menuitemradio', { name: '繁體中文' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-TW');
    await expect(page.getByRole('heading', { level: 1, name: '快速穩定地連上全球網路' })).toBeVisible();
  });
});

test.describe('first load in a zh-CN browser', () => {
  test.use({ locale: 'zh-CN' });

  test('speaks Simplified Chinese', async ({ page }) => {
    await page.goto('/download');
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
    await expect(page.getByRole('link', { name: '注册', exact: true })).toBeVisible();
  });
});

test.describe('first load in a browser of another language', () => {
  test.use({ locale: 'fr-FR' });

  test('speaks Traditional Chinese (spec section 4)', async ({ page }) => {
    await page.goto('/download');
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-TW');
    await expect(page.getByRole('link', { name: '註冊', exact: true })).toBeVisible();
  });
});
