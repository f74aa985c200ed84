import type { Locator, Page } from '@playwright/test';
import {
  expect,
  freshAccount,
  mailedCode,
  openAccountDialog,
  signInAs,
  test,
  toast,
  useLanguage,
} from './support.ts';

// Issue 30: after a mistyped address had shown its message, correcting the address and pressing the
// get-code button again sent nothing. Leaving the field by that press removed the message, which
// moved the button from under the pointer before the release, so the browser sent no click. Each
// journey mistypes first, corrects the address, and then needs the code that one press sends.

test.use({ viewport: { width: 1280, height: 800 } });
// A minute for each: a code mail, the account's own calls, the console's first load.
test.describe.configure({ timeout: 60_000 });

test.beforeEach(async ({ page }) => {
  await useLanguage(page, 'zh');
});

/** The addresses of the code calls the page makes, from now on. */
function codeCalls(page: Page): string[] {
  const sent: string[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/web/login/verify_email')) {
      sent.push((request.postDataJSON() as { email: string }).email);
    }
  });
  return sent;
}

/**
 * Types a malformed address into `email` and presses the get-code button (the field's message shows,
 * no call goes out, the button is idle again), then types `address` and presses the button once:
 * the countdown starts. Answers the code mailed to `address`.
 */
async function codeAfterMistype(
  scope: Page | Locator,
  page: Page,
  email: Locator,
  address: string,
): Promise<string> {
  const sent = codeCalls(page);
  const getCode = scope.getByRole('button', { name: '获取验证码' });
  await email.fill('not-an-email');
  await getCode.click();
  await expect(scope.getByText('邮箱格式不正确')).toBeVisible();
  await expect(getCode).toBeEnabled();
  expect(sent).toEqual([]);

  await email.fill(address);
  await getCode.click();
  // Spec section 4: after the send, a countdown in seconds keeps the button disabled.
  await expect(scope.getByRole('button', { name: /^\d+ 秒$/ })).toBeDisabled();
  await expect(scope.getByText('邮箱格式不正确')).toBeHidden();
  expect(sent).toEqual([address]);
  return mailedCode(page.request, address);
}

test('registers after a mistyped address', async ({ page }) => {
  const address = `mistype-register-${Date.now()}@example.com`;
  await page.goto('/login?formType=regist');
  const code = await codeAfterMistype(page, page, page.getByLabel('邮箱', { exact: true }), address);
  await page.getByLabel('验证码', { exact: true }).fill(code);
  await page.getByLabel('密码', { exact: true }).fill('first-Passw0rd');
  await page.getByLabel('确认密码', { exact: true }).fill('first-Passw0rd');
  await page.getByRole('button', { name: '注册', exact: true }).click();
  await expect(page).toHaveURL('/buy');
  await expect(page.getByRole('button', { name: '账户菜单' })).toContainText(address);
});

test('resets a forgotten password after a mistyped address', async ({ page, request }) => {
  const { account } = await freshAccount(request);
  await page.goto('/login?formType=forget');
  const code = await codeAfterMistype(page, page, page.getByLabel('邮箱', { exact: true }), account);
  await page.getByLabel('验证码', { exact: true }).fill(code);
  await page.getByLabel('新密码', { exact: true }).fill('reset-Passw0rd');
  await page.getByLabel('确认新密码', { exact: true }).fill('reset-Passw0rd');
  await page.getByRole('button', { name: '重置密码', exact: true }).click();
  await expect(toast(page, '密码已重置，请重新登录')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: '登录' })).toBeVisible();
  await page.getByLabel('密码', { exact: true }).fill('reset-Passw0rd');
  await page.getByRole('button', { name: '登录', exact: true }).click();
  await expect(page).toHaveURL('/buy');
});

test('changes the e-mail address after a mistyped one', async ({ page, request }) => {
  await signInAs(page, await freshAccount(request));
  const address = `mistype-change-${Date.now()}@example.com`;
  await page.goto('/buy');
  const dialog = await openAccountDialog(page, '修改邮箱', '账户菜单');
  const code = await codeAfterMistype(dialog, page, dialog.getByLabel('新邮箱'), address);
  await dialog.getByLabel('验证码').fill(code);
  await dialog.getByRole('button', { name: '保存' }).click();
  await expect(toast(page, '邮箱已更换')).toBeVisible();
  await expect(page.getByRole('button', { name: '账户菜单' })).toContainText(address);
});
