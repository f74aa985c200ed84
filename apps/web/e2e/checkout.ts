// The sandbox checkout as a buyer goes through it on /buy: the journeys of buying and of what a
// purchase leads to (My devices) share it.
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import type { PlanList } from '@skyway/shared/plans';
import { callBody, expect } from './support.ts';

/** The monthly plan's price for one connection, in fen. */
export async function monthlyPrice(request: APIRequestContext): Promise<number> {
  const reply = await request.post('/web/plan/list', { data: callBody() });
  const { plans } = ((await reply.json()) as { data: PlanList }).data;
  const month = plans.find((plan) => plan.period === 'month');
  if (!month) throw new Error('no monthly plan');
  return month.unit_price;
}

/** Picks the monthly plan and a number of connections on /buy. */
export async function choose(page: Page, connections: number): Promise<void> {
  await page.getByRole('radio', { name: /Monthly/ }).check();
  const input = page.getByLabel('Simultaneous connections');
  await input.fill(String(connections));
  await input.blur();
  await expect(input).toHaveValue(String(connections));
}

/**
 * Buy → the sandbox checkout (the server's own page) → Pay → back on /buy with the inquiry dialog,
 * which shows the order paid. Returns the dialog and the order id.
 */
export async function buyAndPay(page: Page, amount: string): Promise<{ dialog: Locator; orderId: string }> {
  await page.getByRole('button', { name: 'Buy now' }).click();
  await expect(page).toHaveURL(/\/pay\/sandbox\/[^/?]+/);
  await expect(page.getByText(amount).first()).toBeVisible();
  await page.getByRole('button', { name: 'Pay with Alipay (test)' }).click();
  await expect(page).toHaveURL(/\/buy\?order_id=[^&]+$/);
  const orderId = new URL(page.url()).searchParams.get('order_id') ?? '';
  const dialog = page.getByRole('dialog', { name: 'Payment inquiry' });
  await expect(dialog.getByText('Payment received')).toBeVisible();
  await expect(dialog).toContainText(orderId);
  await expect(dialog).toContainText(`Amount${amount}`);
  return { dialog, orderId };
}
