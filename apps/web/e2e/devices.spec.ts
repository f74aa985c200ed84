import type { APIRequestContext, Page } from '@playwright/test';
import { importLinks } from '@skyway/shared/import-links';
import { formatYuan } from '@skyway/shared/money';
import { parse } from 'yaml';
import { buyAndPay, choose, monthlyPrice } from './checkout.ts';
import {
  type Account,
  addNode,
  animationsSettled,
  expect,
  expectNoAccessibilityViolations,
  freshAccount,
  saveScreenshot,
  secondDeviceOn,
  signInAs,
  test,
  useLanguage,
} from './support.ts';

const MIHOMO = 'mihomo/1.19.0';
const TOKEN_LINK = /^http:\/\/127\.0\.0\.1:\d+\/s\/[A-Za-z0-9_-]{43}$/;

interface ClashProxy {
  name: string;
  type: string;
  uuid?: string;
  password?: string;
}

/** What a Clash Meta app gets from a link: the proxies of its config. */
async function clashProxies(request: APIRequestContext, link: string): Promise<ClashProxy[]> {
  const reply = await request.get(link, { headers: { 'user-agent': MIHOMO } });
  expect(reply.status(), await reply.text()).toBe(200);
  expect(reply.headers()['content-type']).toMatch(/yaml/);
  return (parse(await reply.text()) as { proxies: ClashProxy[] }).proxies;
}

/** Buys a month of `connections` in the sandbox and follows the paid dialog to My devices. */
async function buyAndSetUp(page: Page, request: APIRequestContext, connections: number): Promise<Account> {
  const account = await freshAccount(request);
  await signInAs(page, account);
  await page.goto('/buy');
  await choose(page, connections);
  const { dialog } = await buyAndPay(page, formatYuan((await monthlyPrice(request)) * connections));
  await dialog.getByRole('link', { name: 'Set up devices' }).click();
  await expect(page).toHaveURL('/devices');
  await expect(page.locator('.device-card')).toHaveCount(connections);
  return account;
}

/** What device 1's card says while the nodes turn a second device away (its holder is in Japan). */
const IN_USE_ELSEWHERE = {
  en: 'This link is in use on another device (location: Japan)',
  zh: '此链接正在日本的另一台设备上使用',
};

test('two connections bought are two devices, each link serving this customer its own credential', async ({
  page,
  request,
  context,
}) => {
  const node = await addNode(request);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await buyAndSetUp(page, request, 2);
  await expect(page.getByTestId('devices-usable')).toHaveText('2 of 2 devices active');

  const first = page.getByTestId('device-1');
  await expect(first.getByText('Device 1')).toBeVisible();
  await expect(first.getByText('Active')).toBeVisible();
  await expect(first.getByRole('img', { name: 'QR code of the link of Device 1' })).toBeVisible();
  await first.getByRole('button', { name: 'Copy link' }).click();
  await expect(page.getByText('Copy successful')).toBeVisible();
  const link = await page.evaluate(() => navigator.clipboard.readText());
  expect(link).toMatch(TOKEN_LINK);
  await expect(first.getByLabel('Subscription link')).toHaveValue(link);

  // A Clash Meta app on the first link: the node's VLESS and Trojan servers, with this slot's
  // credential, which is not the second slot's.
  const proxies = (await clashProxies(request, link)).filter((proxy) => proxy.name.includes(node));
  expect(proxies.map((proxy) => proxy.type).sort()).toEqual(['trojan', 'vless']);
  const uuid = proxies.find((proxy) => proxy.type === 'vless')?.uuid ?? '';
  expect(uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  const secondLink = await page.getByTestId('device-2').getByLabel('Subscription link').inputValue();
  const second = await clashProxies(request, secondLink);
  expect(second.find((proxy) => proxy.name.includes(node) && proxy.type === 'vless')?.uuid).not.toBe(uuid);

  // The app has fetched the link: the card says when.
  await page.reload();
  await expect(first.getByText('Never')).toHaveCount(0);

  // Reset: the old link stops at once; the new one serves a new credential.
  await first.getByRole('button', { name: 'Reset link' }).click();
  // Clicked while the dialog still zooms in, its button can be a few pixels wide and miss.
  await animationsSettled(page);
  await page.getByRole('dialog').getByRole('button', { name: 'Reset' }).click();
  await expect(first.getByLabel('Subscription link')).not.toHaveValue(link);
  const newLink = await first.getByLabel('Subscription link').inputValue();
  expect((await request.get(link, { headers: { 'user-agent': MIHOMO } })).status()).toBe(404);
  const renewed = await clashProxies(request, newLink);
  expect(renewed.find((proxy) => proxy.name.includes(node) && proxy.type === 'vless')?.uuid).not.toBe(uuid);

  // Renamed, the card and the import link's profile name carry the new name.
  await first.getByRole('button', { name: 'Rename' }).click();
  const rename = page.getByRole('dialog', { name: 'Rename device' });
  await rename.getByLabel('Name').fill('Work laptop');
  await rename.getByRole('button', { name: 'Save' }).click();
  await expect(rename).toBeHidden();
  await expect(first.getByText('Work laptop')).toBeVisible();
  await expectNoAccessibilityViolations(page);
});

test('a link opened in a browser shows its QR code and the apps’ import links', async ({ page, request }) => {
  await buyAndSetUp(page, request, 1);
  const link = await page.getByTestId('device-1').getByLabel('Subscription link').inputValue();

  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Your device’s subscription' })).toBeVisible();
  const qr = page.getByRole('img', { name: 'QR' });
  await expect(qr).toBeVisible();
  expect(await qr.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);
  await expect(page.locator('code')).toHaveText(link);
  const shown = await page
    .getByRole('link')
    .evaluateAll((links) => links.map((anchor) => [anchor.textContent, anchor.getAttribute('href')]));
  expect(shown).toEqual(importLinks(link, 'Skyway').map(({ app, href }) => [app, href]));
});

for (const language of ['en', 'zh'] as const) {
  test(`My devices fits a 375 px phone (${language})`, async ({ page, request }) => {
    await page.setViewportSize({ width: 375, height: 812 });
    const account = await buyAndSetUp(page, request, 2);
    // A second device on the first link, which the nodes refuse: its card says so.
    await secondDeviceOn(request, account);
    await useLanguage(page, language);
    await page.reload();
    await expect(page.locator('.device-card')).toHaveCount(2);
    await expect(page.getByTestId('device-1').getByText(IN_USE_ELSEWHERE[language])).toBeVisible();
    await expect(page.getByTestId('device-2').locator('.device-card__elsewhere')).toHaveCount(0);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBe(0);
    await expect(
      page.getByTestId('device-1').getByRole('button', { name: /Copy link|复制链接/ }),
    ).toBeVisible();
    await saveScreenshot(page, 'devices', language, 375);
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect(page.getByRole('navigation', { name: /Console menu|控制台菜单/ })).toBeVisible();
    await expect(page.locator('.device-card')).toHaveCount(2);
    await saveScreenshot(page, 'devices', language, 1280);
  });
}
