import { randomBytes } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import { callBody, expect, freshAccount, test } from '../../web/e2e/support.ts';
import { saveScreenshot, signedInOwner } from './support.ts';

// Support answers a customer's ticket from the queue, in Simplified Chinese: the ticket waits in the
// queue with its screenshot, the member reads the customer beside it, writes an internal note and a
// reply, and the customer's thread shows the reply but never the note.

test.describe.configure({ timeout: 120_000 });

test.beforeEach(({ consoleErrors }) => {
  // The browser logs the 401 of the session check that finds nobody signed in.
  consoleErrors.allow(/status of 401/);
});

const SCREENSHOT =
  'iVBORw0KGgoAAAANSUhEUgAAABgAAAAQCAIAAACDRijCAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAIElEQVQ4jWNwKT9DFcQwapDLaBi5jKaj8tEsUk5+OgAAeudKn/JMVlsAAAAASUVORK5CYII=';

async function customerCall<T>(request: APIRequestContext, token: string, route: string, payload: object) {
  const reply = await request.post(route, {
    data: callBody({ ...payload }),
    headers: { authorization: token },
  });
  expect(reply.ok(), await reply.text()).toBe(true);
  return ((await reply.json()) as { data: T }).data;
}

test('support answers a ticket from the queue, in Chinese', async ({ page, request }) => {
  const customer = await freshAccount(request);
  const subject = `付款后没有到账 ${randomBytes(3).toString('hex')}`;
  const ticket = await customerCall<{ id: string }>(request, customer.token, '/web/ticket/create', {
    subject,
    category: 'payment',
    priority: 'high',
    message: '我用支付宝付了款，但是时长没有增加。',
    images: [SCREENSHOT],
  });

  await signedInOwner(page, request);
  await page.evaluate(() => localStorage.setItem('skyway_admin_language', 'zh'));
  await page.reload();
  // The dashboard counts the ticket among those waiting for staff.
  await expect(page.getByText('近 30 天客服数据')).toBeVisible();
  await page.getByRole('menuitem', { name: '工单' }).click();
  await page.getByRole('button', { name: subject }).click();

  const drawer = page.getByRole('dialog', { name: subject });
  await expect(drawer.getByText('我用支付宝付了款，但是时长没有增加。')).toBeVisible();
  await expect(drawer.getByRole('button', { name: '图片 1' })).toBeVisible();
  await expect(drawer.getByText(customer.account)).toBeVisible();

  await drawer.getByRole('textbox', { name: '回复' }).fill('内部：已核对支付宝流水');
  await drawer.getByText('内部备注（客户看不到）').click();
  await drawer.getByRole('button', { name: /^发\s*送$/ }).click();
  await expect(page.locator('.ant-message-notice-title').getByText('备注已保存')).toBeVisible();
  await expect(drawer.getByText('内部备注', { exact: true })).toBeVisible();

  await drawer.getByRole('textbox', { name: '回复' }).fill('已为您补上时长，请刷新后查看。');
  await drawer.getByRole('button', { name: /^发\s*送$/ }).click();
  await expect(
    page.locator('.ant-message-notice-title').getByText('回复已发送，已邮件通知客户'),
  ).toBeVisible();
  await expect(drawer.getByText('已回复')).toBeVisible();
  await saveScreenshot(page, 'ticket', 'zh');

  // The customer reads the reply; the note never reaches them.
  const thread = await customerCall<{ state: string; messages: { from: string; body: string }[] }>(
    request,
    customer.token,
    '/web/ticket/detail',
    { id: ticket.id },
  );
  expect(thread.state).toBe('answered');
  expect(thread.messages.map((message) => [message.from, message.body])).toEqual([
    ['customer', '我用支付宝付了款，但是时长没有增加。'],
    ['staff', '已为您补上时长，请刷新后查看。'],
  ]);
});
