import { randomBytes } from 'node:crypto';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { callBody, expect, test } from '../../web/e2e/support.ts';
import { saveScreenshot, signedInOwner } from './support.ts';

test.beforeEach(({ consoleErrors }) => {
  // The browser logs the 401 of the session check that finds nobody signed in.
  consoleErrors.allow(/status of 401/);
});

/** The notices the customer site's download page shows now (in English), as anyone may ask for them. */
async function downloadPageNotices(request: APIRequestContext) {
  const reply = await request.post('/web/notice/public', { data: callBody() });
  expect(reply.ok(), await reply.text()).toBe(true);
  return ((await reply.json()) as { data: { list: { title: string; body_html: string }[] } }).data.list;
}

/** Confirms the question a row's action asks first. */
async function confirm(page: Page, action: string, title: string) {
  const question = page.getByRole('dialog', { name: `${action}: ${title}` });
  await question.getByRole('button', { name: action }).click();
  await expect(question).toBeHidden();
}

/**
 * Writes one language's title and Markdown body, and previews it: the bold word comes back as
 * markup, the script typed into it as text.
 */
async function writeAndPreview(
  dialog: Locator,
  language: { name: string; code: string; title: string; bold: string; body: string },
) {
  await dialog.getByRole('tab', { name: language.name }).click();
  const panel = dialog.getByRole('tabpanel', { name: language.name });
  await panel.getByLabel('Title').fill(language.title);
  await panel.getByLabel('Body (Markdown)').fill(language.body);
  await panel.getByRole('switch', { name: 'Preview' }).click();
  const preview = panel.getByTestId(`notice-preview-${language.code}`);
  await expect(preview.locator('strong')).toHaveText(language.bold);
  await expect(preview).toContainText(`<script>alert("${language.code}")</script>`);
  await expect(preview.locator('script')).toHaveCount(0);
  await expect(preview.getByRole('heading', { name: language.title })).toBeVisible();
  // Back to writing: the body is as it was typed.
  await panel.getByRole('switch', { name: 'Preview' }).click();
  await expect(panel.getByLabel('Body (Markdown)')).toHaveValue(language.body);
}

test('an owner writes a notice in three languages, previews each, saves it as a draft, publishes it to the download page and takes it down', async ({
  page,
  request,
}) => {
  const run = randomBytes(4).toString('hex');
  const languages = [
    {
      name: 'English',
      code: 'en',
      title: `Maintenance ${run}`,
      bold: 'Sunday',
      body: 'Nodes restart on **Sunday** at 02:00.\n\n<script>alert("en")</script>',
    },
    {
      name: '简体中文',
      code: 'zh',
      title: `维护通知 ${run}`,
      bold: '周日',
      body: '节点将于 **周日** 02:00 重启。\n\n<script>alert("zh")</script>',
    },
    {
      name: '繁體中文',
      code: 'tw',
      title: `維護通知 ${run}`,
      bold: '週日',
      body: '節點將於 **週日** 02:00 重新啟動。\n\n<script>alert("tw")</script>',
    },
  ];
  const [english, ...chinese] = languages;
  if (!english) throw new Error('no English');
  await signedInOwner(page, request);

  await page.getByRole('menuitem', { name: 'Notices' }).click();
  await page.getByRole('button', { name: 'New notice' }).click();
  const dialog = page.getByRole('dialog', { name: 'New notice' });
  await writeAndPreview(dialog, english);
  // Saved with English only: the form shows the first language still missing, and sends nothing.
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByRole('tab', { name: '简体中文' })).toHaveAttribute('aria-selected', 'true');
  await expect(dialog.getByRole('tabpanel', { name: '简体中文' })).toContainText('Required');
  for (const language of chinese) await writeAndPreview(dialog, language);
  await dialog.getByRole('tab', { name: 'English' }).click();
  await dialog.getByRole('tabpanel', { name: 'English' }).getByRole('switch', { name: 'Preview' }).click();
  await expect(dialog.getByTestId('notice-preview-en').locator('strong')).toBeVisible();
  await saveScreenshot(page, 'notice-editor', 'en');
  await dialog.getByLabel('Show on the download page').check();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();

  // No publish time: a draft, which customers do not see.
  const row = page.getByTestId('notices').getByRole('row', { name: new RegExp(english.title) });
  await expect(row.getByText('Draft', { exact: true })).toBeVisible();
  await expect(row).toContainText('All accounts');
  expect((await downloadPageNotices(request)).map((notice) => notice.title)).not.toContain(english.title);

  await row.getByRole('button', { name: 'Publish now' }).click();
  await confirm(page, 'Publish now', english.title);
  await expect(row.getByText('Published', { exact: true })).toBeVisible();
  // The download page shows it, its body rendered as in the preview.
  const shown = (await downloadPageNotices(request)).find((notice) => notice.title === english.title);
  expect(shown?.body_html).toContain('<strong>Sunday</strong>');
  expect(shown?.body_html).toContain('&lt;script&gt;');

  // The row opens onto the body as customers read it.
  await row.getByRole('button', { name: 'Expand row' }).click();
  await expect(page.getByTestId('notices').locator('.notice-html strong')).toHaveText('Sunday');
  await saveScreenshot(page, 'notices', 'en');

  await row.getByRole('button', { name: 'Take down' }).click();
  await confirm(page, 'Take down', english.title);
  await expect(row.getByText('Expired', { exact: true })).toBeVisible();
  expect((await downloadPageNotices(request)).map((notice) => notice.title)).not.toContain(english.title);

  // Its editor holds what was written; an expiry before the publish time is refused on the form.
  await row.getByRole('button', { name: 'Edit' }).click();
  const editor = page.getByRole('dialog', { name: 'Edit notice' });
  await expect(editor.getByRole('tabpanel', { name: 'English' }).getByLabel('Title')).toHaveValue(
    english.title,
  );
  const expiry = editor.getByLabel('Expiry time');
  await expiry.click();
  await expiry.fill('2000-01-01 00:00:00');
  await expiry.press('Enter');
  await editor.getByRole('button', { name: 'Save' }).click();
  await expect(editor).toContainText('The expiry must come after the publish time');
  await editor.getByRole('button', { name: 'Cancel' }).click();
  await expect(editor).toBeHidden();
  await expect(row.getByText('Expired', { exact: true })).toBeVisible();

  // In Chinese, the list shows each notice's Chinese title.
  await page.evaluate(() => localStorage.setItem('skyway_admin_language', 'zh'));
  await page.reload();
  const chineseRow = page
    .getByTestId('notices')
    .getByRole('row', { name: new RegExp(chinese[0]?.title ?? '') });
  await expect(chineseRow.getByText('已过期', { exact: true })).toBeVisible();
  await saveScreenshot(page, 'notices', 'zh');
});
