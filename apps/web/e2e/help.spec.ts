import type { Device } from '@skyway/shared/devices';
import {
  callBody,
  expect,
  expectNoAccessibilityViolations,
  freshAccount,
  signInAs,
  subscribeInApp,
  test,
  useLanguage,
} from './support.ts';

// The help center as a Chinese-speaking customer meets it: public, searchable in Chinese, and a
// tutorial that shows the customer's own device link and import buttons once signed in.

const MONTH_SECONDS = 31 * 86_400;

test('a signed-in customer with a device opens a tutorial in Chinese and sees their own import link', async ({
  page,
  request,
}) => {
  const account = await freshAccount(request);
  await subscribeInApp(request, account, Math.floor(Date.now() / 1000) + MONTH_SECONDS);
  const reply = await request.post('/web/device/list', {
    data: callBody(),
    headers: { authorization: account.token },
  });
  const [own] = ((await reply.json()) as { data: { devices: Device[] } }).data.devices;
  if (!own) throw new Error('the subscriber has no device');

  await useLanguage(page, 'zh');
  await signInAs(page, account);
  await page.goto('/help');
  await expect(page.getByRole('heading', { name: '帮助中心', level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: '客户端' })).toBeVisible();

  // A search in Chinese finds the troubleshooting article.
  await page.getByRole('searchbox', { name: '搜索帮助中心' }).fill('连接');
  await expect(page.getByRole('link', { name: '无法连接怎么办' }).first()).toBeVisible();

  await page.getByRole('link', { name: 'sing-box 使用教程' }).click();
  await expect(page).toHaveURL('/help/sing-box');
  await expect(page.getByRole('heading', { name: 'sing-box 使用教程', level: 1 })).toBeVisible();
  const picker = page.getByTestId('device-picker');
  await expect(picker.getByRole('textbox', { name: '订阅链接' })).toHaveValue(own.url);
  await expect(picker.getByRole('link', { name: 'sing-box / Hiddify' })).toHaveAttribute(
    'href',
    new RegExp(encodeURIComponent(`${own.url}/sing-box`).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')),
  );
  await expect(picker.getByRole('img', { name: /二维码/ })).toBeVisible();
  await expectNoAccessibilityViolations(page, 'main');

  // The start page's section for customers with access shows to this subscriber.
  await page.goto('/help/getting-started');
  await expect(page.getByText('您的服务正在生效')).toBeVisible();
});

test('a signed-out visitor reads a tutorial with a prompt to sign in instead of a link', async ({ page }) => {
  await useLanguage(page, 'zh');
  await page.goto('/help/flclash');
  await expect(page.getByRole('heading', { name: 'FlClash 使用教程', level: 1 })).toBeVisible();
  await expect(page.getByText('登录后，这里会显示您自己的设备链接和导入按钮。')).toBeVisible();
  await expect(page.getByTestId('device-picker')).toHaveCount(0);
  await page.goto('/help/getting-started');
  await expect(page.getByText('您目前没有可用的服务')).toBeVisible();
  await expect(page.getByText('您的服务正在生效')).toHaveCount(0);
});
