import { controlUrl } from '../../server/src/testing/journey-fixtures.ts';
import { expect, freshAccount, signInAs, test, text, useLanguage } from './support.ts';

// A customer in Simplified Chinese opens a support ticket with a screenshot, and later reads the
// staff reply: the side menu marks it, the thread shows it.

test.describe.configure({ timeout: 90_000 });

/** A small PNG, as a screenshot would be. */
const SCREENSHOT = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAABgAAAAQCAIAAACDRijCAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAIElEQVQ4jWNwKT9DFcQwapDLaBi5jKaj8tEsUk5+OgAAeudKn/JMVlsAAAAASUVORK5CYII=',
  'base64',
);

test('open a ticket with a screenshot and read the staff reply, in Chinese', async ({ page, request }) => {
  const account = await freshAccount(request);
  await useLanguage(page, 'zh');
  await signInAs(page, account);
  await page.goto('/support');

  await page.getByRole('button', { name: text('zh', 'support', 'new') }).click();
  const dialog = page.getByRole('dialog', { name: text('zh', 'support', 'new') });
  await dialog.getByLabel(text('zh', 'support', 'form.subject')).fill('晚上无法连接');
  await dialog.getByText(text('zh', 'support', 'priority.high'), { exact: true }).click();
  await dialog.getByLabel(text('zh', 'support', 'form.message')).fill('每天晚上八点以后就断开');
  await dialog
    .locator('input[type=file]')
    .setInputFiles({ name: '截图.png', mimeType: 'image/png', buffer: SCREENSHOT });
  await expect(dialog.getByText('截图.png')).toBeVisible();
  await dialog.getByRole('button', { name: text('zh', 'support', 'form.submit') }).click();
  await expect(dialog).toBeHidden();

  // The thread of the new ticket: the message, and the screenshot as a download.
  await expect(page.getByText('每天晚上八点以后就断开')).toBeVisible();
  await expect(
    page.getByRole('button', { name: text('zh', 'support', 'thread.image', { number: '1' }) }),
  ).toBeVisible();
  const ticketId = new URL(page.url()).searchParams.get('ticket');
  expect(ticketId).toBeTruthy();

  // Support answers (in the back office, whose own journey drives that screen).
  const reply = await request.post(controlUrl('/tickets/staff-reply'), {
    data: { ticket_id: ticketId, message: '请切换到东京节点后再试一次。' },
  });
  expect(reply.ok(), await reply.text()).toBe(true);

  // Elsewhere in the console, the menu marks the unread reply; the thread shows it.
  await page.goto('/devices');
  const menuEntry = page.getByRole('link', { name: new RegExp(text('zh', 'common', 'nav.support')) });
  await expect(menuEntry.locator('.ant-badge-count')).toHaveText('1');
  await menuEntry.click();
  await page.getByRole('button', { name: /晚上无法连接/ }).click();
  await expect(page.getByText('请切换到东京节点后再试一次。')).toBeVisible();
  await expect(page.getByText(text('zh', 'support', 'state.answered')).first()).toBeVisible();
  await expect(menuEntry.locator('.ant-badge-count')).toHaveCount(0);
});
