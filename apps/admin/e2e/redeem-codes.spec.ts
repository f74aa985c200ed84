import { readFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { callBody, expect, freshAccount, test } from '../../web/e2e/support.ts';
import { signedInOwner } from './support.ts';

test.beforeEach(({ consoleErrors }) => {
  // The browser logs the 401 of the session check that finds nobody signed in.
  consoleErrors.allow(/status of 401/);
});

test('an owner generates a batch, saves its codes, sees one redeemed, revokes a code and the batch', async ({
  page,
  request,
}) => {
  const name = `Card shop ${randomBytes(3).toString('hex')}`;
  await signedInOwner(page, request);
  await page.getByRole('menuitem', { name: 'Redeem codes' }).click();

  await page.getByRole('button', { name: 'New batch' }).click();
  const dialog = page.getByRole('dialog', { name: 'New batch' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByLabel('Codes').fill('3');
  await dialog.getByLabel("Days at the account's connections").check();
  await dialog.getByRole('spinbutton', { name: 'Days' }).fill('30');
  const download = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Generate' }).click();
  // The CSV is saved the moment the server answers: three codes of five groups of four.
  const saved = await download;
  const csv = await readFile((await saved.path()) ?? '', 'utf8');
  const codes = csv.trimEnd().split('\r\n').slice(1);
  expect(codes).toHaveLength(3);
  for (const code of codes) expect(code).toMatch(/^[2-9A-HJKMNP-Z]{4}(-[2-9A-HJKMNP-Z]{4}){4}$/);
  await expect(dialog).toContainText('3 codes generated');
  await dialog.getByRole('button', { name: 'Close', exact: true }).last().click();
  await expect(dialog).toBeHidden();

  // A customer redeems the first code.
  const customer = await freshAccount(request);
  const redeemed = await request.post('/web/redeem', {
    data: callBody({ code: codes[0] }),
    headers: { authorization: customer.token },
  });
  expect(redeemed.ok(), await redeemed.text()).toBe(true);

  // The second code revoked as typed, without dashes.
  await page.getByRole('button', { name: 'Revoke a code' }).click();
  const revoke = page.getByRole('dialog', { name: 'Revoke a code' });
  await revoke.getByLabel('Code').fill((codes[1] ?? '').replace(/-/g, ''));
  await revoke.getByRole('button', { name: 'Revoke' }).click();
  await expect(revoke).toBeHidden();

  await page.getByPlaceholder('Batch name').fill(name);
  await page.getByPlaceholder('Batch name').press('Enter');
  const row = page.getByTestId('redeem-batches').getByRole('row', { name: new RegExp(name) });
  await expect(row).toContainText('30 days');
  // Codes 3, redeemed 1, revoked 1.
  await expect(row.locator('td').nth(2)).toHaveText('3');
  await expect(row.locator('td').nth(3)).toHaveText('1');
  await expect(row.locator('td').nth(4)).toHaveText('1');

  await row.getByRole('button', { name: 'Redemptions' }).click();
  await expect(page.getByTestId('redemptions')).toContainText(customer.account);
  await page.keyboard.press('Escape');

  await row.getByRole('button', { name: 'Revoke' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
  await expect(row).toContainText('Revoked');
  await expect(row.locator('td').nth(4)).toHaveText('2');
});
