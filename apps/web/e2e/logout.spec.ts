import {
  callBody,
  chooseFromAccountMenu,
  expect,
  freshAccount,
  signInAs,
  storedSession,
  test,
} from './support.ts';

test('log out ends the session on the server and clears it in the browser', async ({ page, request }) => {
  const account = await freshAccount(request);
  await signInAs(page, account);
  await page.goto('/order');
  await expect(page.getByRole('banner').getByRole('heading', { name: 'My orders' })).toBeVisible();

  const loggedOut = page.waitForResponse((response) => response.url().endsWith('/web/login/out'));
  await chooseFromAccountMenu(page, 'Log out');
  expect((await loggedOut).status()).toBe(200);

  await expect(page).toHaveURL('/login');
  expect(await storedSession(page)).toEqual({ token: null, user: null });

  const after = await request.post('/web/user/info', {
    headers: { authorization: account.token },
    data: callBody(),
  });
  expect(after.status()).toBe(401);
});
