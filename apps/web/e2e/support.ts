import { randomBytes, randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import nodePath from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { type APIRequestContext, test as base, expect, type Locator, type Page } from '@playwright/test';
import { signParams } from '@skyway/shared/signing';
import type { SessionUser, User, UserInfo } from '@skyway/shared/user';
import { STORAGE_KEYS } from '../src/lib/storage-keys.ts';
import type { Language } from '@skyway/shared/languages';
import type { SETTINGS } from '@skyway/shared/schemas/admin/settings';
import { controlUrl } from '../../server/src/testing/journey-fixtures.ts';

type SettingKey = keyof typeof SETTINGS;

export { expect };

export interface ConsoleErrors {
  /** Lets an error through that the journey expects, e.g. the browser's log of a 401 reply. */
  allow: (pattern: RegExp) => void;
}

/** The operator's settings, which a journey changes for itself alone. */
export interface OperatorSettings {
  /** Sets one as `npm run settings -- set` does; it is reset when the journey ends. */
  set: (key: SettingKey, value: string) => Promise<void>;
}

/** The server's settings control (journey-server.ts): a value writes a setting, none resets it to its default. */
async function postSetting(request: APIRequestContext, key: SettingKey, value?: string): Promise<void> {
  const reply = await request.post(controlUrl('/setting'), { data: { key, value } });
  expect(reply.ok(), await reply.text()).toBe(true);
}

/**
 * Every journey fails on an error in the page's console (a CSP violation, a React warning, a crash).
 * A journey changes the operator's settings through `operatorSettings` only.
 */
export const test = base.extend<{ consoleErrors: ConsoleErrors; operatorSettings: OperatorSettings }>({
  consoleErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      const allowed: RegExp[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(`${message.text()} (${message.location().url})`);
      });
      page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
      await use({ allow: (pattern) => allowed.push(pattern) });
      expect(errors.filter((error) => !allowed.some((pattern) => pattern.test(error)))).toEqual([]);
    },
    { auto: true },
  ],
  // One server serves the whole run, so a setting a journey leaves changed changes every journey
  // after it (a trial left closed fails the next journey that claims it). The reset is this
  // fixture's teardown, not a `finally` in the journey: a journey that runs out of time stops at the
  // await it was in, and its `finally` runs late, with its request context closed, or not at all;
  // Playwright tears the fixtures down whatever way the journey ended.
  operatorSettings: async ({ request }, use) => {
    const changed = new Set<SettingKey>();
    await use({
      set: async (key, value) => {
        changed.add(key);
        await postSetting(request, key, value);
      },
    });
    for (const key of changed) await postSetting(request, key);
  },
});

/** An account a journey registered through the site's own calls, and its session. */
export interface Account {
  account: string;
  token: string;
  /** The user of the register reply, which the app keeps next to the token. */
  user: User;
}

/**
 * Signs the page in as an account by writing its session where the app keeps it, before the app's
 * first script runs; only on the first load, so that a reload after logout stays signed out.
 */
export async function signInAs(page: Page, { token, user }: Account): Promise<void> {
  await page.addInitScript(
    ({ keys, token, user }) => {
      if (sessionStorage.getItem('e2e.signed-in')) return;
      sessionStorage.setItem('e2e.signed-in', '1');
      localStorage.setItem(keys.token, token);
      localStorage.setItem(keys.user, JSON.stringify(user));
    },
    { keys: STORAGE_KEYS, token, user },
  );
}

export async function storedSession(page: Page): Promise<{ token: string | null; user: string | null }> {
  return page.evaluate(
    (keys) => ({ token: localStorage.getItem(keys.token), user: localStorage.getItem(keys.user) }),
    STORAGE_KEYS,
  );
}

export const path = (page: Page) => new URL(page.url()).pathname;

/** A call body as the app sends it, signed when journey-server.ts runs the server with a signing secret. */
export function callBody(payload: Record<string, unknown> = {}): Record<string, unknown> {
  const body: Record<string, unknown> = { ...payload, t: Math.floor(Date.now() / 1000), l: 'us-en' };
  const secret = process.env.E2E_SIGNATURE_SECRET;
  if (secret) body.s = signParams(body, secret);
  return body;
}

/** A call as the app makes it; fails the journey unless the server answers 200 with `data`. */
async function call<T>(
  request: APIRequestContext,
  route: string,
  payload: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<T> {
  const reply = await request.post(route, { data: callBody(payload), headers });
  expect(reply.ok(), await reply.text()).toBe(true);
  return ((await reply.json()) as { data: T }).data;
}

// WCAG 2.1 A and AA: landmarks, headings, names and alt text, contrast, keyboard-reachable controls.
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

/**
 * Waits until every animation on the page has ended (endless ones, a spinner or a blinking caret,
 * never end, and change no contrast): a dialog still zooming in has its buttons where a click lands
 * on nothing, and a table fading in from its loading state is half transparent in a screenshot.
 */
export async function animationsSettled(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every(
        (animation) =>
          animation.playState !== 'running' || animation.effect?.getComputedTiming().iterations === Infinity,
      ),
  );
}

/**
 * Runs axe over the page, or only over the elements that match `include` (a dialog, say), once every
 * animation has ended: a dialog still fading in is half transparent, and its contrast with it.
 */
export async function expectNoAccessibilityViolations(page: Page, include?: string): Promise<void> {
  await animationsSettled(page);
  const builder = new AxeBuilder({ page }).withTags(AXE_TAGS);
  if (include) builder.include(include);
  const { violations } = await builder.analyze();
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

/**
 * Opens the account menu (named `menu` in the page's language) and clicks one of its items, once the
 * menu has finished sliding in.
 */
export async function chooseFromAccountMenu(page: Page, item: string, menu = 'Account menu'): Promise<void> {
  await page.getByRole('button', { name: menu }).click();
  // A click while the menu slides in can miss: Playwright's retry scrolls the page under the menu.
  // The first opening animates as "appear", every later one as "enter".
  await expect(page.locator('.ant-dropdown:not(.ant-dropdown-hidden)')).not.toHaveClass(/ant-slide-up/);
  await page.getByRole('menuitem', { name: item }).click();
}

/** An account dialog ("User info", "Change password", …), from the account menu; visible. */
export async function openAccountDialog(page: Page, item: string, menu?: string): Promise<Locator> {
  await chooseFromAccountMenu(page, item, menu);
  const dialog = page.getByRole('dialog', { name: item });
  await expect(dialog).toBeVisible();
  return dialog;
}

/** A toast with this text; several may be on screen at once. */
export const toast = (page: Page, text: string | RegExp) =>
  page.locator('.ant-message-notice-title').filter({ hasText: text });

/** The user as `/web/user/info` reads it for a session token, straight from the server. */
export async function userInfo(request: APIRequestContext, token: string): Promise<UserInfo> {
  return call<UserInfo>(request, '/web/user/info', {}, { authorization: token });
}

/** The page shows itself in a language from its first load, as a stored choice makes it. */
export async function useLanguage(page: Page, language: Language): Promise<void> {
  await page.addInitScript(({ key, language }) => localStorage.setItem(key, language), {
    key: STORAGE_KEYS.language,
    language,
  });
}

/** The code in the next code mail to an address, as its owner reads it (journey-server.ts catches the mail). */
export async function mailedCode(request: APIRequestContext, address: string): Promise<string> {
  const reply = await request.post(controlUrl('/code'), { data: { to: address } });
  expect(reply.ok(), await reply.text()).toBe(true);
  return ((await reply.json()) as { code: string }).code;
}

/**
 * A new account, registered as a visitor registers (a code by mail, then the form's call), from a
 * client address of its own as each customer has; `inviter` makes it the invitee of that account,
 * as registering through its share link does.
 */
export async function freshAccount(request: APIRequestContext, inviter?: Account): Promise<Account> {
  const account = `e2e-${randomBytes(6).toString('hex')}@example.com`;
  const headers = { 'x-forwarded-for': `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}` };
  await call(request, '/web/login/verify_email', { email: account, scene: 'register' }, headers);
  const { token, ...user } = await call<SessionUser>(
    request,
    '/web/login/register',
    {
      email: account,
      password: `${randomBytes(6).toString('hex')}-Passw0rd`,
      email_code: await mailedCode(request, account),
      invite_code: inviter?.user.invite_code,
    },
    headers,
  );
  return { account, token, user };
}

/**
 * Makes an account an App Store subscriber as production does: the notification Apple sends for
 * a first purchase in the app (SUBSCRIBED, signed by the chain journey-server.ts trusts, a month of
 * E2E_APP_STORE's product ending at `expires`, unix seconds) delivered to the notify route.
 */
export async function subscribeInApp(request: APIRequestContext, account: Account, expires: number) {
  const { app_account_token } = await userInfo(request, account.token);
  const signed = await request.post(controlUrl('/app-store/initial-buy'), {
    data: { app_account_token, expires },
  });
  expect(signed.ok(), await signed.text()).toBe(true);
  const { signedPayload } = (await signed.json()) as { signedPayload: string };
  const delivered = await request.post('/web/pay/apple/notify', { data: { signedPayload } });
  expect(delivered.status(), await delivered.text()).toBe(200);
}

/** Registers a node serving VLESS and Trojan (journey-server.ts) and answers its name. */
export async function addNode(request: APIRequestContext): Promise<string> {
  const reply = await request.post(controlUrl('/node'));
  expect(reply.ok(), await reply.text()).toBe(true);
  return ((await reply.json()) as { name: string }).name;
}

/** The nodes report a second device on the account's first slot, which they refuse. */
export async function secondDeviceOn(request: APIRequestContext, { account }: Account): Promise<void> {
  const reply = await request.post(controlUrl('/devices/second-device'), { data: { email: account } });
  expect(reply.ok(), await reply.text()).toBe(true);
}

export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/** A translation file of the site, as the page shows it in that language. */
export function locale(language: Language, namespace: string): Record<string, Json> {
  const file = nodePath.join(import.meta.dirname, '../src/locales', language, `${namespace}.json`);
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, Json>;
}

/** The text at a dotted key of a translation file, placeholders filled in. */
export function text(
  language: Language,
  namespace: string,
  key: string,
  values: Record<string, string> = {},
) {
  let node: Json = locale(language, namespace);
  for (const part of key.split('.')) node = (node as Record<string, Json>)[part] ?? null;
  if (typeof node !== 'string') throw new Error(`no text ${namespace}:${key} in ${language}`);
  return node
    .replace(/<\/?\w+>/g, '')
    .replace(/\{\{(\w+)\}\}/g, (_, name: string) => values[name] ?? `{{${name}}}`);
}

/** Where the journeys leave full-page screenshots for a reviewer: `<page>-<language>-<width>.png`. */
const SCREENSHOT_DIR = nodePath.join(import.meta.dirname, 'screenshots');

export async function saveScreenshot(
  page: Page,
  name: string,
  language: Language,
  width: number,
): Promise<void> {
  await page.screenshot({
    path: nodePath.join(SCREENSHOT_DIR, `${name}-${language}-${width}.png`),
    fullPage: true,
  });
}
