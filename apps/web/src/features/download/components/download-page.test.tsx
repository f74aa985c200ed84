import type { InviteConf } from '@skyway/shared/invitations';
import type { PlanList } from '@skyway/shared/plans';
import type { SiteConf } from '@skyway/shared/site';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import zhDownload from '../../../locales/zh/download.json';
import twDownload from '../../../locales/tw/download.json';
import { i18n } from '../../../lib/i18n.ts';
import { clearSession } from '../../../lib/session.ts';
import { answer, never, noReply, ok, requestsTo } from '../../../test/network.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { signIn } from '../../../test/user-info.ts';

const conf: SiteConf = {
  site_name: 'Skyway Test',
  support_email: 'help@example.com',
  downloads: [
    { platform: 'windows', url: 'https://dl.example.com/skyway.exe', version: '2.1.0' },
    { platform: 'macos', url: 'https://dl.example.com/skyway.dmg', version: '2.0.3' },
    { platform: 'android', url: 'https://dl.example.com/skyway.apk', version: '1.9.0' },
  ],
  signing: false,
};

vi.mock('../../../lib/site-conf.ts', () => ({ useSiteConf: () => ({ data: conf }) }));
vi.mock('../../../lib/toast.ts', () => import('../../../test/fake-toast.ts'));

const PLANS: PlanList = {
  currency: 'CNY',
  max_connections: 5,
  plans: [
    { period: 'month', months: 1, days: 31, unit_price: 3000 },
    { period: 'half_year', months: 6, days: 183, unit_price: 15000 },
    { period: 'year', months: 12, days: 366, unit_price: 26400 },
  ],
  pay_methods: ['alipay', 'wechat_pay', 'card'],
  pay_options: (['alipay', 'wechat_pay', 'card'] as const).map((pay_method) => ({
    pay_method,
    gateway_id: null,
    name: null,
    fee_bps: 0,
  })),
};
const TRIAL_OPEN: InviteConf = { open_trial: '1', trial_minute: 1440, invite_minute: 4320 };

const { showError } = await import('../../../test/fake-toast.ts');
const { DownloadPage } = await import('./download-page.tsx');

const MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Safari/605.1.15';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148';
const LINUX =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

function useUserAgent(userAgent: string) {
  vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(userAgent);
  vi.spyOn(navigator, 'maxTouchPoints', 'get').mockReturnValue(0);
}

async function renderPage() {
  await renderWithProviders([{ path: '/download', element: <DownloadPage /> }], { url: '/download' });
  await screen.findByRole('heading', { level: 1 });
}

const cardNames = () =>
  screen
    .getAllByRole('listitem')
    .map((card) => within(card).queryByRole('heading', { level: 3 })?.textContent)
    .filter((name) => name !== undefined)
    .slice(0, 4);

// The calls of the pricing section and of the notices; the other tests leave them unanswered, so
// that the page they look at does not change under them.
beforeEach(() => {
  answer('/web/plan/list', never);
  answer('/web/invite/conf', never);
  answer('/web/notice/public', never);
});

afterEach(() => {
  clearSession();
});

describe('DownloadPage', () => {
  it('has exactly one h1', async () => {
    useUserAgent(LINUX);
    await renderPage();
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
  });

  it('puts the visitor’s own platform first, marks it, and links the hero button to its download', async () => {
    useUserAgent(MAC);
    await renderPage();
    expect(cardNames()).toEqual(['macOS', 'Windows', 'Android', 'iOS']);

    const own = screen.getAllByRole('listitem')[0] as HTMLElement;
    expect(within(own).getByText('Your device')).toBeTruthy();
    expect(screen.getAllByText('Your device')).toHaveLength(1);

    const heroLinks = screen
      .getAllByRole('link', { name: 'Download for macOS' })
      .map((link) => link.getAttribute('href'));
    expect(heroLinks).toEqual(['https://dl.example.com/skyway.dmg', 'https://dl.example.com/skyway.dmg']);
    expect(screen.getByText('Version 2.0.3', { selector: '.hero__note' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Download the app' })).toBeNull();
  });

  it('shows a platform without a download as coming soon, and then keeps the hero button on the list', async () => {
    useUserAgent(IPHONE);
    await renderPage();
    expect(cardNames()).toEqual(['iOS', 'Windows', 'macOS', 'Android']);
    const own = screen.getAllByRole('listitem')[0] as HTMLElement;
    expect(within(own).getByText('Your device')).toBeTruthy();
    expect(within(own).getByText('Coming soon')).toBeTruthy();
    expect(within(own).queryByRole('link')).toBeNull();
    expect(screen.getByRole('button', { name: 'Download the app' })).toBeTruthy();
  });

  it('keeps the usual order and no badge when the platform is unknown', async () => {
    useUserAgent(LINUX);
    await renderPage();
    expect(cardNames()).toEqual(['Windows', 'macOS', 'Android', 'iOS']);
    expect(screen.queryByText('Your device')).toBeNull();
    expect(screen.getByRole('link', { name: 'Download for Windows' }).getAttribute('href')).toBe(
      'https://dl.example.com/skyway.exe',
    );
  });

  it('asks a signed-out visitor to register', async () => {
    useUserAgent(LINUX);
    await renderPage();
    const register = screen.getAllByRole('link', { name: 'Create a free account' });
    expect(register.map((link) => link.getAttribute('href'))).toEqual([
      '/login?formType=regist',
      '/login?formType=regist',
    ]);
    expect(screen.queryByRole('link', { name: 'Go to console' })).toBeNull();
  });

  it('offers the console instead to a signed-in user', async () => {
    useUserAgent(LINUX);
    signIn();
    await renderPage();
    expect(screen.queryByRole('link', { name: 'Create a free account' })).toBeNull();
    const consoleLinks = screen.getAllByRole('link', { name: 'Go to console' });
    expect(consoleLinks.map((link) => link.getAttribute('href'))).toEqual(['/buy', '/buy']);
  });
});

describe('DownloadPage, prices before registering', () => {
  const pricingHeading = () => screen.findByRole('heading', { level: 2, name: 'Plans and prices' });

  it('shows each plan’s price per connection, the trial’s length and the payment methods', async () => {
    useUserAgent(LINUX);
    answer('/web/plan/list', ok(PLANS));
    answer('/web/invite/conf', ok(TRIAL_OPEN));
    await renderPage();
    const section = (await pricingHeading()).closest('section') as HTMLElement;

    const plans = within(section)
      .getAllByRole('listitem')
      .filter((item) => within(item).queryByRole('heading', { level: 3 }));
    expect(plans.map((plan) => plan.textContent)).toEqual([
      'Monthly¥30.00 per connection1 mo · 31 days',
      'Half-yearly¥150.00 per connection6 mo · 183 days' + 'about ¥25.00 a month',
      'Yearly¥264.00 per connection12 mo · 366 days' + 'about ¥22.00 a month',
    ]);
    expect(within(section).getByText(/choose 1 to 5 connections/)).toBeTruthy();
    expect(within(section).getByText('New accounts can try it free for 1 day.')).toBeTruthy();
    const methods = within(section).getByRole('list', { name: 'Pay with' });
    expect(
      within(methods)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Alipay', 'WeChat Pay', 'Card']);
    expect(within(section).getByRole('link', { name: 'Create a free account' }).getAttribute('href')).toBe(
      '/login?formType=regist',
    );
    // Public calls, through the api client (which signs them when the server asks for it).
    for (const path of ['/web/plan/list', '/web/invite/conf']) {
      const [request] = requestsTo(path);
      expect(await request?.body).toEqual({ t: expect.any(Number), l: 'us-en' });
      expect(request?.headers.has('authorization')).toBe(false);
    }
  });

  it('says nothing of a trial while the operator has closed it', async () => {
    useUserAgent(LINUX);
    answer('/web/plan/list', ok(PLANS));
    answer('/web/invite/conf', ok({ ...TRIAL_OPEN, open_trial: '0' }));
    await renderPage();
    const section = (await pricingHeading()).closest('section') as HTMLElement;
    expect(within(section).getAllByText(/per connection/)).toHaveLength(3);
    expect(within(section).queryByText(/try it free/)).toBeNull();
  });

  it('still shows the prices when the trial’s config cannot be read', async () => {
    useUserAgent(LINUX);
    answer('/web/plan/list', ok(PLANS));
    answer('/web/invite/conf', noReply);
    await renderPage();
    const section = (await pricingHeading()).closest('section') as HTMLElement;
    expect(within(section).getByText('¥30.00')).toBeTruthy();
    expect(within(section).queryByText(/try it free/)).toBeNull();
    expect(showError).not.toHaveBeenCalled();
  });

  it('leaves the section out, and the rest of the page as it is, when the plans cannot be loaded', async () => {
    useUserAgent(LINUX);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    answer('/web/plan/list', noReply);
    answer('/web/invite/conf', ok(TRIAL_OPEN));
    await renderPage();
    await waitFor(() => expect(warn).toHaveBeenCalled());
    expect(document.querySelector('.pricing-placeholder')).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Plans and prices' })).toBeNull();
    expect(screen.queryByText(/¥/)).toBeNull();
    expect(screen.getByRole('heading', { level: 2, name: 'Get the app' })).toBeTruthy();
    expect(screen.getAllByRole('link', { name: 'Create a free account' })).toHaveLength(2);
    expect(showError).not.toHaveBeenCalled();
  });

  it('offers the console to a signed-in user instead of registration', async () => {
    useUserAgent(LINUX);
    signIn();
    answer('/web/plan/list', ok(PLANS));
    answer('/web/invite/conf', ok(TRIAL_OPEN));
    await renderPage();
    const section = (await pricingHeading()).closest('section') as HTMLElement;
    expect(within(section).getByRole('link', { name: 'Go to console' }).getAttribute('href')).toBe('/buy');
    expect(within(section).queryByRole('link', { name: 'Create a free account' })).toBeNull();
  });
});

describe('DownloadPage, Chinese headline', () => {
  afterEach(async () => {
    await act(() => i18n.changeLanguage('en'));
  });

  // Words may break only at the marks (with word-break: keep-all in download-page.css).
  const parts = (title: string) => title.split('\u200b');

  it.each([
    ['zh', zhDownload.hero.title, ['快速稳定地', '连接', '全球互联网']],
    ['tw', twDownload.hero.title, ['快速穩定地', '連上', '全球網路']],
  ])('%s: marks where a line may break, between words only', (_language, title, words) => {
    expect(parts(title)).toEqual(words);
  });

  it('renders the marks in the h1, whose text stays the title', async () => {
    useUserAgent(LINUX);
    await act(() => i18n.changeLanguage('zh'));
    await renderPage();
    const h1 = screen.getByRole('heading', { level: 1 });
    expect(h1.textContent).toBe(zhDownload.hero.title);
    expect(parts(h1.textContent ?? '')).toContain('全球互联网');
  });
});

describe('DownloadPage, notices', () => {
  const NOTICE = {
    id: '00000000-0000-4000-8000-000000000001',
    title: 'Maintenance on Sunday',
    body_html:
      '<p>Servers restart at <strong>02:00</strong>. <a href="https://status.example.com">Status</a></p>',
    publish_time: 1_800_000_000,
  };
  const region = () => screen.queryByRole('region', { name: 'Notices' });

  it('shows each notice as a banner above the headline: its title and body', async () => {
    useUserAgent(LINUX);
    const second = { ...NOTICE, id: '00000000-0000-4000-8000-000000000002', title: 'New servers in Tokyo' };
    answer('/web/notice/public', ok({ list: [NOTICE, second] }));
    await renderPage();
    const banners = await screen.findByRole('region', { name: 'Notices' });
    const articles = within(banners).getAllByRole('article');
    expect(articles.map((article) => within(article).getByRole('heading', { level: 2 }).textContent)).toEqual(
      ['Maintenance on Sunday', 'New servers in Tokyo'],
    );
    expect(within(banners).getByRole('article', { name: 'Maintenance on Sunday' })).toBe(articles[0]);
    const first = within(articles[0] as HTMLElement);
    expect(first.getByText('02:00').tagName).toBe('STRONG');
    expect(first.getByRole('link', { name: 'Status' }).getAttribute('href')).toBe(
      'https://status.example.com',
    );
    // At the top of the page's content.
    const h1 = screen.getByRole('heading', { level: 1 });
    expect(banners.compareDocumentPosition(h1) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    // A public call in the page's language.
    const [request] = requestsTo('/web/notice/public');
    expect(await request?.body).toEqual({ t: expect.any(Number), l: 'us-en' });
    expect(request?.headers.has('authorization')).toBe(false);
  });

  it('shows nothing when there are none', async () => {
    useUserAgent(LINUX);
    answer('/web/notice/public', ok({ list: [] }));
    await renderPage();
    await waitFor(() => expect(requestsTo('/web/notice/public')).toHaveLength(1));
    await act(async () => undefined);
    expect(region()).toBeNull();
    expect(document.querySelector('.notice-banner')).toBeNull();
  });

  it('shows nothing, and no error, when they cannot be loaded', async () => {
    useUserAgent(LINUX);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    answer('/web/notice/public', noReply);
    await renderPage();
    await waitFor(() =>
      expect(warn).toHaveBeenCalledWith('The notices could not be loaded', expect.anything()),
    );
    expect(region()).toBeNull();
    expect(showError).not.toHaveBeenCalled();
  });
});
