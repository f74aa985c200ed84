import type { APIRequestContext } from '@playwright/test';
import { controlUrl } from '../../server/src/testing/journey-fixtures.ts';
import { formatExpiry } from '../src/lib/dates.ts';
import { expect, freshAccount, signInAs, test, text, toast, useLanguage, userInfo } from './support.ts';

// A customer who bought a redeem code on a card shop redeems it in the console, in Simplified
// Chinese: a wrong code is refused in the dialog, the right one adds its month at two connections,
// and My orders shows the redemption as a paid order of ¥0 by redeem code.

test.use({ viewport: { width: 1280, height: 800 } });
test.describe.configure({ timeout: 90_000 });

/** A batch of codes as staff generate it, each a month of two connections: the codes of its CSV. */
async function redeemCodes(request: APIRequestContext, count: number): Promise<string[]> {
  const reply = await request.post(controlUrl('/redeem/batch'), {
    data: { name: `e2e ${Date.now()}`, count, grant: { kind: 'plan', period: 'month', connections: 2 } },
  });
  expect(reply.ok(), await reply.text()).toBe(true);
  return ((await reply.json()) as { codes: string[] }).codes;
}

test('redeem a code in the console, in Chinese', async ({ page, request, consoleErrors }) => {
  // The two refusals below are the browser's 400s of /web/redeem, as the server answers a wrong code.
  consoleErrors.allow(/status of 400 .*\/web\/redeem/);
  const [code] = await redeemCodes(request, 1);
  if (!code) throw new Error('no code');
  const account = await freshAccount(request);
  await useLanguage(page, 'zh');
  await signInAs(page, account);
  await page.goto('/devices');

  const openDialog = async () => {
    await page.getByRole('button', { name: text('zh', 'common', 'actions.redeemCode') }).click();
    const dialog = page.getByRole('dialog', { name: text('zh', 'redeem', 'title') });
    await expect(dialog).toBeVisible();
    return dialog;
  };

  // A mistyped code: the server's refusal, in Chinese, inside the dialog.
  let dialog = await openDialog();
  const field = dialog.getByLabel(text('zh', 'redeem', 'label'));
  await field.fill(code.replace(/^..../, 'ZZZZ'));
  await dialog.getByRole('button', { name: text('zh', 'redeem', 'redeem') }).click();
  await expect(dialog.getByRole('alert')).toContainText('兑换码无效或已被使用');

  // The right code, typed in lower case and without dashes, as customers do.
  await field.fill(code.toLowerCase().replace(/-/g, ' '));
  await dialog.getByRole('button', { name: text('zh', 'redeem', 'redeem') }).click();
  await expect(dialog).toBeHidden();
  const info = await userInfo(request, account.token);
  expect(info.connections).toBe(2);
  expect(info.expire_user - Math.floor(Date.now() / 1000)).toBeGreaterThan(31 * 86_400 - 120);
  await expect(
    toast(page, text('zh', 'redeem', 'redeemed', { date: formatExpiry(info.expire_user) ?? '' })),
  ).toBeVisible();
  await expect(page.getByTestId('expiry')).toHaveText(formatExpiry(info.expire_user) ?? '');

  // Once: the same code again is refused like any invalid one.
  dialog = await openDialog();
  await dialog.getByLabel(text('zh', 'redeem', 'label')).fill(code);
  await dialog.getByRole('button', { name: text('zh', 'redeem', 'redeem') }).click();
  await expect(dialog.getByRole('alert')).toContainText('兑换码无效或已被使用');
  await dialog.getByRole('button', { name: text('zh', 'redeem', 'cancel') }).click();

  // My orders: the redemption as a paid order of ¥0, by redeem code.
  await page.getByRole('link', { name: '我的订单' }).first().click();
  const row = page.getByRole('row').filter({ hasText: '兑换码' });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('¥0.00');
  await expect(row).toContainText('已支付');
});
