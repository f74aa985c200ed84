import { randomBytes } from 'node:crypto';
import { expect, test } from '../../web/e2e/support.ts';
import { memberCall, saveScreenshot, signedInOwner } from './support.ts';

test.beforeEach(({ consoleErrors }) => {
  // The browser logs the 401 of the session check that finds nobody signed in.
  consoleErrors.allow(/status of 401/);
});

interface ListedGateway {
  id: string;
  names: { en: string };
  fee_bps: number | null;
  enabled: boolean;
  keys_set: boolean;
  settings: { url: string; pid?: string };
}

test('an owner adds an Epay gateway, changes its fee, tests its keys and turns it off', async ({
  page,
  request,
}) => {
  const name = `Epay ${randomBytes(3).toString('hex')}`;
  await signedInOwner(page, request);
  const listed = async () =>
    ((await memberCall(page, 'GET', '/gateways')).data.items as ListedGateway[]) ?? [];
  // The journey server's own Epay gateway, on the Epay stand-in: the new one is its merchant with a
  // key the stand-in does not know.
  const seeded = (await listed())[0];
  if (!seeded?.settings.pid) throw new Error('the journey server has no Epay gateway');

  await page.getByRole('menuitem', { name: 'Payment gateways' }).click();
  const table = page.getByTestId('gateways');
  await expect(
    table.getByRole('row', { name: new RegExp(seeded.names.en.replace(/[()]/g, '\\$&')) }),
  ).toContainText('1%');

  await page.getByRole('button', { name: 'Add gateway' }).click();
  await page.getByRole('menuitem', { name: 'Epay', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Epay gateway' });
  await dialog.getByLabel('Name for buyers (English)').fill(name);
  await dialog.getByLabel('Name for buyers (简体中文)').fill(`易支付 ${name}`);
  await dialog.getByLabel('Name for buyers (繁體中文)').fill(`易支付 ${name}`);
  await dialog.getByLabel('Fee').fill('2.5');
  await dialog.getByLabel('Position').fill('1000');
  await dialog.getByLabel('Site URL').fill(seeded.settings.url);
  await dialog.getByLabel('Merchant ID (pid)').fill(seeded.settings.pid);
  await dialog.getByLabel('Merchant key').fill('not-the-merchant-key');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();

  const row = table.getByRole('row', { name: new RegExp(name) });
  try {
    await expect(row).toContainText('2.5%');
    await expect(row).toContainText('WeChat Pay');
    await expect(row.getByText('Set', { exact: true })).toBeVisible();
    await expect(row.getByRole('switch', { name: `Enabled ${name}` })).toBeChecked();

    // Its editor never shows the key: left empty, the stored one stays.
    await row.getByRole('button', { name: 'Edit' }).click();
    const editor = page.getByRole('dialog', { name: 'Edit Epay gateway' });
    await expect(editor.getByLabel('Merchant key')).toHaveValue('');
    await expect(editor.getByLabel('Merchant key')).toHaveAttribute(
      'placeholder',
      'Keys are set: leave empty to keep them',
    );
    await expect(editor.getByLabel('Fee')).toHaveValue('2.50');
    await saveScreenshot(page, 'gateway-form', 'en');
    await editor.getByLabel('Fee').fill('1.25');
    await editor.getByRole('button', { name: 'Save' }).click();
    await expect(editor).toBeHidden();
    await expect(row).toContainText('1.25%');
    await saveScreenshot(page, 'gateways', 'en');

    // The stand-in knows the merchant but not this key.
    await row.getByRole('button', { name: 'Test keys' }).click();
    const result = page.getByTestId('gateway-test-result');
    await expect(result).toContainText('The gateway refused the keys.');
    await expect(result).toContainText('The gateway said: KEY校验失败');
    await page.getByRole('button', { name: 'OK' }).click();
    await expect(result).toBeHidden();

    await row.getByRole('switch', { name: `Enabled ${name}` }).click();
    await expect(row.getByRole('switch')).not.toBeChecked();
    const saved = (await listed()).find((gateway) => gateway.names.en === name);
    expect(saved).toMatchObject({ fee_bps: 125, enabled: false, keys_set: true });
  } finally {
    // Buyers of later journeys are not offered it, whatever became of this one.
    for (const gateway of await listed()) {
      if (gateway.names.en === name && gateway.enabled) {
        await memberCall(page, 'PATCH', `/gateways/${gateway.id}`, { enabled: false });
      }
    }
  }
});
