import { randomBytes } from 'node:crypto';
import nodePath from 'node:path';
import { type APIRequestContext, type Browser, expect, type Page } from '@playwright/test';
import { generateSync } from 'otplib';
import type { Language } from '@skyway/shared/languages';
import { controlUrl } from '../../server/src/testing/journey-fixtures.ts';
import { type Account, animationsSettled, callBody, freshAccount } from '../../web/e2e/support.ts';

async function linkFrom(
  request: APIRequestContext,
  path: string,
  data: Record<string, string>,
): Promise<string> {
  const reply = await request.post(controlUrl(path), { data });
  expect(reply.ok(), await reply.text()).toBe(true);
  return ((await reply.json()) as { link: string }).link;
}

/** The set-up link `npm run admin -- invite-owner EMAIL` prints. */
export const ownerLink = (request: APIRequestContext, email: string) =>
  linkFrom(request, '/staff/owner-link', { email });

/** The set-up link in the invitation mailed to a member of staff. */
export const mailedLink = (request: APIRequestContext, to: string) =>
  linkFrom(request, '/staff/mailed-link', { to });

/** A member who finished their set-up link: how they sign in from then on. */
export interface StaffLogin {
  email: string;
  password: string;
  secret: string;
  recoveryCodes: string[];
}

/** The code an authenticator app shows for a secret, `stepsLater` 30-second steps from now. */
export const authenticatorCode = (secret: string, stepsLater = 0) =>
  generateSync({ secret, epoch: Math.floor(Date.now() / 1000) + stepsLater * 30 });

/**
 * Follows a set-up link as the member does: reads the key under the QR code into "their app",
 * chooses a password, types the app's code, and keeps the recovery codes the page shows once.
 */
export async function setUpStaff(page: Page, link: string, email: string): Promise<StaffLogin> {
  const password = `Staff-${Math.random().toString(36).slice(2, 10)}-9`;
  await page.goto(link);
  const secret = (await page.getByTestId('totp-secret').innerText()).trim();
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Password again').fill(password);
  await page.getByLabel('Code from your authenticator app').fill(authenticatorCode(secret));
  await page.getByRole('button', { name: 'Save' }).click();
  const codes = page.getByTestId('recovery-codes').locator('.ant-list-item');
  await expect(codes).toHaveCount(10);
  const recoveryCodes = (await codes.allInnerTexts()).map((code) => code.trim());
  return { email, password, secret, recoveryCodes };
}

/**
 * Signs in with the password, then one of the recovery codes (a code of the app would be refused
 * as a replay within the 30 seconds of the one the set-up used).
 */
export async function signIn(page: Page, login: StaffLogin): Promise<void> {
  await page.goto('/admin/sign-in');
  await page.getByLabel('E-mail').fill(login.email);
  await page.getByLabel('Password').fill(login.password);
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
  const code = login.recoveryCodes.shift();
  if (!code) throw new Error(`${login.email} has no recovery code left`);
  await page.getByLabel('Recovery code').fill(code);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('signed-in-as')).toContainText(login.email);
}

/** The owner of a new back office: set up from the printed link, signed in with a recovery code. */
export async function signedInOwner(page: Page, request: APIRequestContext): Promise<StaffLogin> {
  const email = `owner-${randomBytes(5).toString('hex')}@example.com`;
  const login = await setUpStaff(page, await ownerLink(request, email), email);
  await page.getByRole('button', { name: 'I have saved them: sign in' }).click();
  await signIn(page, login);
  await expect(page.getByTestId('dashboard')).toBeVisible();
  return login;
}

/** A member of staff in a browser of their own: invited by mail, set up, and signed in. */
export async function staffBrowser(browser: Browser, email: string, link: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const login = await setUpStaff(page, link, email);
  await page.getByRole('button', { name: 'I have saved them: sign in' }).click();
  await signIn(page, login);
  return { context, page, login };
}

/**
 * Where the journeys leave full-page screenshots for a reviewer: `<page>-<language>.png`, taken once
 * every animation has ended (a table fading in from its loading state is half transparent).
 */
export async function saveScreenshot(page: Page, name: string, language: Language): Promise<void> {
  await animationsSettled(page);
  await page.screenshot({
    path: nodePath.join(import.meta.dirname, 'screenshots', `${name}-${language}.png`),
    fullPage: true,
  });
}

/** A buyer's order that the provider charged twice: the first payment paid it, the second gave no time. */
export async function chargedTwice(request: APIRequestContext, orderId: string): Promise<void> {
  const reply = await request.post(controlUrl('/payments/charged-twice'), { data: { order_id: orderId } });
  expect(reply.ok(), await reply.text()).toBe(true);
  expect(((await reply.json()) as { outcomes: string[] }).outcomes).toEqual(['credited', 'already_paid']);
}

/**
 * Calls the back office's API as the member signed in on the page does (their cookie, and the CSRF
 * token of their session on a change); answers the envelope, whatever its code.
 */
export async function memberCall(
  page: Page,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  path: string,
  data?: object,
): Promise<{ code: number; data: Record<string, unknown> }> {
  const session = await page.request.get('/admin/api/v1/session');
  const { csrf_token } = ((await session.json()) as { data: { csrf_token: string } }).data;
  const reply = await page.request.fetch(`/admin/api/v1${path}`, {
    method,
    headers: method === 'GET' ? {} : { 'x-csrf-token': csrf_token },
    data,
  });
  return (await reply.json()) as { code: number; data: Record<string, unknown> };
}

/**
 * A customer who bought a month of one connection at the sandbox checkout (so one device slot), and
 * whose app fetched that slot's subscription link once, as `userAgent`.
 */
export async function customerWithFetchedSlot(
  request: APIRequestContext,
  userAgent = 'mihomo/1.19.0',
): Promise<Account> {
  const customer = await freshAccount(request);
  const headers = { authorization: customer.token };
  const created = await request.post('/web/order/create', {
    data: callBody({ period: 'month', connections: 1, pay_method: 'alipay' }),
    headers,
  });
  expect(created.ok(), await created.text()).toBe(true);
  const { checkout_url } = ((await created.json()) as { data: { checkout_url: string } }).data;
  // The sandbox checkout's Pay button, which then sends the buyer back to the site.
  const checkout = new URL(checkout_url, 'http://127.0.0.1').pathname;
  const paid = await request.post(`${checkout}/pay`, { maxRedirects: 0 });
  expect(paid.status(), await paid.text()).toBe(303);
  const listed = await request.post('/web/device/list', { data: callBody(), headers });
  const { devices } = ((await listed.json()) as { data: { devices: { url: string }[] } }).data;
  expect(devices).toHaveLength(1);
  const fetched = await request.get(devices[0]?.url ?? '', { headers: { 'user-agent': userAgent } });
  expect(fetched.status(), await fetched.text()).toBe(200);
  return customer;
}
