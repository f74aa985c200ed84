import type { APIRequestContext, Page } from '@playwright/test';
import { formatDateTime } from '@skyway/shared/dates';
import { formatYuan, gatewayFee } from '@skyway/shared/money';
import { controlUrl, E2E_GATEWAY } from '../../server/src/testing/journey-fixtures.ts';
import { monthlyPrice } from './checkout.ts';
import { expect, freshAccount, signInAs, test, text, useLanguage } from './support.ts';

// Buying through a gateway of the back office's (journey-server.ts's Epay gateway, served by the Epay
// stand-in) as a Chinese-speaking buyer: by QR code on a computer, by the gateway's page on a phone.
const t = (namespace: string, key: string, values?: Record<string, string>) =>
  text('zh', namespace, key, values);

/** /buy with a month for one connection and Alipay through the journeys' gateway chosen; its total. */
async function chooseGateway(page: Page, request: APIRequestContext): Promise<string> {
  await useLanguage(page, 'zh');
  await signInAs(page, await freshAccount(request));
  const price = await monthlyPrice(request);
  const fee = gatewayFee(price, E2E_GATEWAY.feeBps);
  await page.goto('/buy');
  await page.getByRole('radio', { name: new RegExp(t('buy', 'plans.names.month')) }).check();
  await page
    .getByRole('radiogroup', { name: t('buy', 'payment.title') })
    .getByRole('radio', { name: new RegExp(t('common', 'payMethods.alipay')) })
    .check();
  // The sandbox serves Alipay as well: the buyer picks the gateway by its name, its fee beside it.
  const through = page.getByRole('radiogroup', { name: t('buy', 'payment.through') });
  await through.getByRole('radio', { name: new RegExp(E2E_GATEWAY.names.zh) }).check();
  await expect(through).toContainText(t('buy', 'payment.fee', { rate: String(E2E_GATEWAY.feeBps / 100) }));
  await expect(page.getByTestId('buy-fee')).toHaveText(
    t('buy', 'summary.feeAmount', { amount: formatYuan(fee) }),
  );
  const total = formatYuan(price + fee);
  await expect(page.getByTestId('buy-total')).toHaveText(total);
  return total;
}

test.describe('on a computer', () => {
  test('pays by the QR code: amount and countdown shown, the notify credits it, the order reads paid', async ({
    page,
    request,
  }) => {
    const total = await chooseGateway(page, request);
    const created = page.waitForResponse('**/web/order/create');
    await page.getByRole('button', { name: t('buy', 'summary.buy') }).click();
    const order = ((await (await created).json()) as { data: { order_id: string; latest_pay_time: number } })
      .data;

    const dialog = page.getByRole('dialog', { name: t('buy', 'scan.title') });
    await expect(dialog.getByRole('img', { name: t('buy', 'scan.qr') })).toBeVisible();
    await expect(dialog.getByTestId('scan-amount')).toContainText(total);
    await expect(dialog).toContainText(t('buy', 'scan.deadline') + formatDateTime(order.latest_pay_time));
    // The countdown runs: it reads less a moment later.
    const timer = dialog.getByRole('timer');
    const first = await timer.textContent();
    await expect(timer).not.toHaveText(first ?? '');
    await expect(timer).toHaveText(/^\d\d:\d\d$/);
    expect(page.url()).toMatch(/\/buy$/);

    // The buyer scans and pays on the phone; the aggregator's notify credits the order.
    const paid = await request.post(controlUrl('/epay/pay'), { data: { order_id: order.order_id } });
    expect(await paid.json()).toEqual({ answer: 'success' });
    const inquiry = page.getByRole('dialog', { name: t('buy', 'inquiry.title') });
    await expect(inquiry.getByText(t('buy', 'inquiry.paid'))).toBeVisible();
    await expect(inquiry).toContainText(order.order_id);
    await expect(inquiry).toContainText(t('buy', 'inquiry.amount') + total);
    await expect(dialog).toBeHidden();
  });
});

test.describe('on a phone', () => {
  test.use({
    viewport: { width: 375, height: 812 },
    userAgent:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
  });

  test('goes to the gateway’s page', async ({ page, request, consoleErrors }) => {
    // The stand-in's page has no icon: the browser's ask for one is the stand-in's 404, not the site's.
    consoleErrors.allow(/favicon\.ico/);
    const total = await chooseGateway(page, request);
    await page.getByRole('button', { name: t('buy', 'summary.buy') }).click();
    await expect(page).toHaveURL(/\/submit\.php\?/);
    const url = new URL(page.url());
    expect(url.searchParams.get('type')).toBe('alipay');
    expect(`¥${url.searchParams.get('money') ?? ''}`).toBe(total);
    await expect(page.getByRole('dialog', { name: t('buy', 'scan.title') })).toHaveCount(0);
  });
});
