import { randomBytes } from 'node:crypto';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { formatDateTime } from '@skyway/shared/dates';
import type { Language } from '@skyway/shared/languages';
import type { NoticeAudience } from '@skyway/shared/notices';
import { controlUrl } from '../../server/src/testing/journey-fixtures.ts';
import {
  type Account,
  callBody,
  expect,
  expectNoAccessibilityViolations,
  freshAccount,
  type Json,
  locale,
  signInAs,
  subscribeInApp,
  test,
  userInfo,
} from './support.ts';

// Notices as customers meet them: a bell in the console and banners on the download page, each in
// the reader's language, read once per account, gone at their expiry without a reload. The server
// is shared by every journey of the run, so the notices have titles of their own and live for
// seconds only: no other journey meets them (afterAll waits for their end, should this one fail).

/**
 * How long the notices show: the checks of a showing notice run in it (about 25 s on a busy
 * two-core machine: seven page loads and three axe runs), then watch it go.
 */
const LIFETIME_MS = 45_000;
/** How often the console asks again (NOTICES_REFETCH_MS). */
const REFETCH_MS = 60_000;

const run = randomBytes(4).toString('hex');
const inEach = (make: (language: Language) => string): Record<Language, string> => ({
  en: make('en'),
  zh: make('zh'),
  tw: make('tw'),
});

const TITLE = { en: `Maintenance ${run}`, zh: `维护通知 ${run}`, tw: `維護公告 ${run}` };
const BOLD = { en: 'twice as fast', zh: '速度翻倍', tw: '速度加倍' };
const LINK = { en: 'the status page', zh: '状态页面', tw: '狀態頁面' };
const STATUS_URL = `https://status.example.com/${run}`;
const IMG = '<img src=x onerror="window.__pwned=1">';
const SCRIPT = '<script>window.__pwned=2</script>';
const BODY = inEach((language) =>
  [`**${BOLD[language]}**: [${LINK[language]}](${STATUS_URL})`, '', IMG, '', SCRIPT].join('\n'),
);
/** The notice for customers with access, which the journey's customer (without) must not see. */
const SUBSCRIBERS_TITLE = inEach((language) => `Subscribers ${language} ${run}`);

let expiresAt = 0;

/** A notice as staff publish it in the back office (journey-server.ts's control takes the same request). */
async function publishNotice(
  request: APIRequestContext,
  notice: {
    title: Record<Language, string>;
    body: Record<Language, string>;
    audience: NoticeAudience;
    on_download_page: boolean;
    publish_at: string;
    expire_at: string;
  },
): Promise<string> {
  const reply = await request.post(controlUrl('/notice'), { data: { ...notice, by_mail: false } });
  expect(reply.ok(), await reply.text()).toBe(true);
  return ((await reply.json()) as { id: string }).id;
}

/** The titles `/web/notice/list` gives an account, in English. */
async function listedTitles(request: APIRequestContext, { token }: Account): Promise<string[]> {
  const reply = await request.post('/web/notice/list', {
    data: callBody(),
    headers: { authorization: token },
  });
  expect(reply.ok(), await reply.text()).toBe(true);
  const { data } = (await reply.json()) as { data: { list: { title: string }[] } };
  return data.list.map((notice) => notice.title);
}

const text = (language: Language, namespace: string, key: string): string => {
  let value: Json = locale(language, namespace);
  for (const part of key.split('.')) value = (value as Record<string, Json>)[part] ?? '';
  return String(value);
};

/** A notice's body as the server rendered it: the bold words, the link, the HTML shown as text. */
async function expectRenderedBody(body: Locator, language: Language): Promise<void> {
  await expect(body.locator('strong')).toHaveText(BOLD[language]);
  await expect(body.getByRole('link', { name: LINK[language] })).toHaveAttribute('href', STATUS_URL);
  await expect(body).toContainText(IMG);
  await expect(body).toContainText(SCRIPT);
  await expect(body.locator('img, script')).toHaveCount(0);
}

const pwned = (page: Page) => page.evaluate(() => (window as { __pwned?: unknown }).__pwned);

/** The console's language menu, as a customer switches: the page reloads in the new language. */
async function switchLanguage(page: Page, from: Language, to: Language): Promise<void> {
  await page.getByRole('button', { name: new RegExp(text(from, 'common', 'language.label')) }).click();
  await page.getByRole('menuitemradio', { name: text(from, 'common', `language.${to}`) }).click();
  await expect(page.locator('html')).toHaveAttribute(
    'lang',
    to === 'en' ? 'en' : to === 'zh' ? 'zh-CN' : 'zh-TW',
  );
}

async function openNotices(page: Page, language: Language): Promise<Locator> {
  await page.getByRole('button', { name: text(language, 'notices', 'bell'), exact: true }).click();
  const drawer = page.getByRole('dialog', { name: text(language, 'notices', 'title') });
  await expect(drawer).toBeVisible();
  return drawer;
}

test.afterAll(async () => {
  // Should the journey stop early, its notices still end before the next journey starts.
  test.setTimeout(LIFETIME_MS + 30_000);
  const left = expiresAt + 1_000 - Date.now();
  if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
});

test('a notice shows in the console and on the download page in each language, read once, until it expires', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(LIFETIME_MS + 60_000);
  // A new account has no access (no trial, nothing bought): the subscribers' notice is not for it.
  const customer = await freshAccount(request);
  expect((await userInfo(request, customer.token)).expire_user).toBe(0);
  const subscriber = await freshAccount(request);
  await subscribeInApp(request, subscriber, Math.floor(Date.now() / 1000) + 3600);

  const publishedAt = new Date();
  expiresAt = publishedAt.getTime() + LIFETIME_MS;
  const times = { publish_at: publishedAt.toISOString(), expire_at: new Date(expiresAt).toISOString() };
  const id = await publishNotice(request, {
    title: TITLE,
    body: BODY,
    audience: 'all',
    on_download_page: true,
    ...times,
  });
  await publishNotice(request, {
    title: SUBSCRIBERS_TITLE,
    body: inEach(() => 'For subscribers.'),
    audience: 'with_access',
    on_download_page: false,
    ...times,
  });
  // The audience decides: the subscriber's list has both, the customer's only the one for all.
  expect(await listedTitles(request, subscriber)).toEqual(
    expect.arrayContaining([TITLE.en, SUBSCRIBERS_TITLE.en]),
  );
  expect(await listedTitles(request, customer)).not.toContain(SUBSCRIBERS_TITLE.en);

  // The download page, signed out, in Simplified Chinese: the banner at the top.
  const visitorContext = await browser.newContext({ locale: 'zh-CN' });
  const visitor = await visitorContext.newPage();
  await visitor.goto('/download');
  const banners = visitor.getByRole('region', { name: text('zh', 'download', 'notices.label') });
  const banner = banners.getByRole('article', { name: TITLE.zh });
  await expect(banner).toBeVisible();
  await expect(banner.getByRole('heading', { level: 2 })).toHaveText(TITLE.zh);
  await expectRenderedBody(banner, 'zh');
  await expect(banners).not.toContainText(SUBSCRIBERS_TITLE.zh);
  expect(await pwned(visitor)).toBeUndefined();
  await expectNoAccessibilityViolations(visitor);

  // The console in English: one unread, on the bell and in its name. Its clock is the page's own,
  // so that after the expiry the journey can let the minute until the bell asks again pass at once.
  await page.clock.install();
  await signInAs(page, customer);
  await page.goto('/buy');
  const unreadBell = page.getByRole('button', { name: 'Notices, 1 unread' });
  await expect(unreadBell).toBeVisible();
  await expect(unreadBell.locator('.ant-badge-count')).toHaveText('1');
  await expectNoAccessibilityViolations(page, '.console-header');

  await unreadBell.click();
  const drawer = page.getByRole('dialog', { name: 'Notices' });
  const item = drawer.getByTestId('notice').filter({ has: page.getByRole('heading', { name: TITLE.en }) });
  await expect(item).toBeVisible();
  await expect(item.locator('time')).toHaveText(formatDateTime(publishedAt));
  await expectRenderedBody(item.locator('.notice-body'), 'en');
  await expect(drawer).not.toContainText(SUBSCRIBERS_TITLE.en);
  expect(await pwned(page)).toBeUndefined();
  // Opening read it: the count is gone, the list still marks it until the drawer closes.
  await expect(page.getByRole('button', { name: 'Notices', exact: true })).toBeVisible();
  await expect(page.locator('.console-header .ant-badge-count')).toHaveCount(0);
  await expect(item).toHaveClass(/notice-item--new/);
  await expectNoAccessibilityViolations(page, '.notice-drawer-root');
  await drawer.getByRole('button', { name: 'Close' }).click();
  await expect(drawer).toBeHidden();

  // Read for this account on the server: still read after a reload.
  await page.reload();
  await expect(page.getByRole('button', { name: 'Notices', exact: true })).toBeVisible();
  await expect(page.locator('.console-header .ant-badge-count')).toHaveCount(0);

  // The same notice in the other languages, as the language menu switches them.
  await switchLanguage(page, 'en', 'zh');
  const zhDrawer = await openNotices(page, 'zh');
  await expect(zhDrawer.getByRole('heading', { name: TITLE.zh })).toBeVisible();
  await expectRenderedBody(zhDrawer.locator('.notice-body').first(), 'zh');
  await page.keyboard.press('Escape');
  await expect(zhDrawer).toBeHidden();

  await switchLanguage(page, 'zh', 'tw');
  const twDrawer = await openNotices(page, 'tw');
  const twTitle = twDrawer.getByRole('heading', { name: TITLE.tw });
  await expect(twTitle).toBeVisible();
  await expectRenderedBody(twDrawer.locator('.notice-body').first(), 'tw');
  expect(await pwned(page)).toBeUndefined();
  expect(Date.now(), 'the checks of a showing notice outlasted its lifetime').toBeLessThan(expiresAt);

  // At its expiry it goes: from the open drawer without a reload, when the bell next asks (once a
  // minute, on the page's clock)...
  await new Promise((resolve) => setTimeout(resolve, expiresAt + 1_000 - Date.now()));
  await page.clock.fastForward(REFETCH_MS);
  await expect(twTitle).toHaveCount(0);
  await expect(twDrawer.getByText(text('tw', 'notices', 'empty'))).toBeVisible();

  // ...and from the download page.
  const reply = visitor.waitForResponse((response) => response.url().endsWith('/web/notice/public'));
  await visitor.reload();
  const { data } = (await (await reply).json()) as { data: { list: { id: string }[] } };
  expect(data.list.map((notice) => notice.id)).not.toContain(id);
  await expect(visitor.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(banners.getByRole('article', { name: TITLE.zh })).toHaveCount(0);
  await visitorContext.close();
});
