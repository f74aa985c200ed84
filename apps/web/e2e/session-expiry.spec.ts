import { callBody, expect, freshAccount, path, signInAs, storedSession, test } from './support.ts';

test('a token the server rejects signs the user out locally and leads to /login', async ({
  page,
  request,
  consoleErrors,
}) => {
  // Chromium logs every non-2xx reply; this one is the point of the journey.
  consoleErrors.allow(/status of 401/);
  // A session the browser still holds, ended on the server (logged out elsewhere).
  const account = await freshAccount(request);
  const ended = await request.post('/web/login/out', {
    headers: { authorization: account.token },
    data: callBody(),
  });
  expect(ended.status()).toBe(200);
  await signInAs(page, account);
  const rejected = page.waitForResponse((response) => response.url().endsWith('/web/user/info'));
  await page.goto('/buy');
  expect((await rejected).status()).toBe(401);

  await expect(page).toHaveURL('/login');
  expect(path(page)).toBe('/login');
  await expect(page.getByRole('heading', { level: 1, name: 'Log in' })).toBeVisible();
  // The server's message, shown after the reload that the sign-out caused: the page has settled.
  await expect(page.locator('.ant-message-notice')).toHaveText(
    'Your session has expired; please sign in again',
  );
  expect(await storedSession(page)).toEqual({ token: null, user: null });
});
