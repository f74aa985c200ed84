import type { APIRequestContext, Page } from '@playwright/test';
import { formatYuan } from '@skyway/shared/money';
import { E2E_COUPON } from '../../server/src/testing/journey-fixtures.ts';
import { monthlyPrice } from './checkout.ts';
import { expect, freshAccount, signInAs, test, text, useLanguage } from './support.ts';

const zh = (key: string, values?: Record<string, string>) => text('zh', 'buy', key, values);
/**
 * The apply button, by its whole name: antd spaces a two-character Chinese label ("使 用") once the
 * button has rendered, and the side panel's "使用兑换码" holds the same word.
 */
const applyButton = (page: Page) =>
  page.getByRole('button', { name: new RegExp(`^${[...zh('coupon.apply')].join(' ?')}$`) });

test.describe('a coupon on the buy page, in Chinese', () => {
  /** A new buyer on the buy page with a month for one connection chosen: its price. */
  async function monthForOne(page: Page, request: APIRequestContext) {
    await useLanguage(page, 'zh');
    await signInAs(page, await freshAccount(request));
    const price = await monthlyPrice(request);
    await page.goto('/buy');
    await page.getByRole('radio', { name: new RegExp(zh('plans.names.month')) }).check();
    const connections = page.getByLabel(zh('connections.label'));
    await expect(connections).toBeEnabled();
    await connections.fill('1');
    await connections.blur();
    await expect(page.getByTestId('buy-total')).toHaveText(formatYuan(price));
    return price;
  }

  test('a code that does not exist is refused with the reason in Chinese, and nothing is taken off', async ({
    page,
    request,
    consoleErrors,
  }) => {
    // The refusal is a 400 reply, which the browser logs.
    consoleErrors.allow(/\/web\/coupon\/check/);
    const price = await monthForOne(page, request);
    const field = page.getByLabel(zh('coupon.label'));
    await field.fill('NOPE-NOPE');
    await applyButton(page).click();
    await expect(page.getByText('优惠码不存在，请检查是否输入正确')).toBeVisible();
    await expect(page.getByTestId('buy-total')).toHaveText(formatYuan(price));
  });

  test('a buyer applies a coupon, sees the price before and after, and pays the discounted price', async ({
    page,
    request,
  }) => {
    const price = await monthForOne(page, request);
    const discount = Math.floor((price * E2E_COUPON.percent * 100 + 5_000) / 10_000);
    const field = page.getByLabel(zh('coupon.label'));

    // The real code, typed in small letters.
    await field.fill(E2E_COUPON.code.toLowerCase());
    await applyButton(page).click();
    await expect(
      page.getByText(zh('coupon.applied', { code: E2E_COUPON.code, amount: formatYuan(discount) })),
    ).toBeVisible();
    await expect(page.getByTestId('buy-price')).toHaveText(formatYuan(price));
    await expect(page.getByTestId('buy-discount')).toHaveText(
      zh('summary.discountAmount', { amount: formatYuan(discount) }),
    );
    const total = formatYuan(price - discount);
    await expect(page.getByTestId('buy-total')).toHaveText(total);

    // The checkout asks for the discounted price: the server priced the coupon itself.
    await page.getByRole('button', { name: zh('summary.buy') }).click();
    await expect(page).toHaveURL(/\/pay\/sandbox\/[^/?]+/);
    await expect(page.getByText(total).first()).toBeVisible();
  });
});
