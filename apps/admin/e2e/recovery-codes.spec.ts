import { randomBytes } from 'node:crypto';
import { expect, test } from '../../web/e2e/support.ts';
import { authenticatorCode, ownerLink, setUpStaff, signIn } from './support.ts';

test.beforeEach(({ consoleErrors }) => {
  // The browser logs the 401 of the session check that finds nobody signed in, and the 400 of the
  // wrong password the journey types.
  consoleErrors.allow(/status of 40[01]/);
});

test('a member makes new recovery codes from their menu: the earlier codes stop working, a new one signs in', async ({
  page,
  request,
}) => {
  const email = `owner-${randomBytes(5).toString('hex')}@example.com`;
  const login = await setUpStaff(page, await ownerLink(request, email), email);
  await page.getByRole('button', { name: 'I have saved them: sign in' }).click();
  await signIn(page, login);
  const earlier = login.recoveryCodes[0] ?? '';

  await page.getByTestId('signed-in-as').click();
  await page.getByRole('menuitem', { name: 'Make new recovery codes' }).click();
  const dialog = page.getByRole('dialog', { name: 'Make new recovery codes' });
  await dialog.getByLabel('Password').fill('not the password');
  // The set-up used the code of this 30-second step: the next one is the app's next code.
  await dialog.getByLabel('Code from your authenticator app').fill(authenticatorCode(login.secret, 1));
  await dialog.getByRole('button', { name: 'Make new codes' }).click();
  await expect(dialog).toContainText('Wrong e-mail address or password');

  await dialog.getByLabel('Password').fill(login.password);
  await dialog.getByRole('button', { name: 'Make new codes' }).click();
  const shown = page.getByRole('dialog', { name: 'Your new recovery codes' });
  const items = shown.getByTestId('recovery-codes').locator('.ant-list-item');
  await expect(items).toHaveCount(10);
  const codes = (await items.allInnerTexts()).map((code) => code.trim());
  expect(codes).not.toContain(earlier);
  await expect(shown.getByRole('button', { name: 'Download' })).toBeVisible();
  const download = page.waitForEvent('download');
  await shown.getByRole('button', { name: 'Download' }).click();
  expect((await download).suggestedFilename()).toMatch(/^recovery-codes-\d{4}-\d\d-\d\d\.txt$/);
  await shown.getByRole('button', { name: 'I have saved them' }).click();
  await expect(shown).toBeHidden();

  await page.getByRole('button', { name: 'Sign out' }).click();
  // A code from before the new ones is refused.
  await page.getByLabel('E-mail').fill(login.email);
  await page.getByLabel('Password').fill(login.password);
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
  await page.getByLabel('Recovery code').fill(earlier);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('The code is wrong or has already been used')).toBeVisible();

  await signIn(page, { ...login, recoveryCodes: codes });
});
