import type { SiteConf } from '@skyway/shared/site';
import { render, screen, within } from '@testing-library/react';
import { Suspense } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearSession, startSession } from '../../../lib/session.ts';

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
  const router = createMemoryRouter([{ path: '/download', element: <DownloadPage /> }], {
    initialEntries: ['/download'],
  });
  render(
    <Suspense fallback={null}>
      <RouterProvider router={router} />
    </Suspense>,
  );
  await screen.findByRole('heading', { level: 1 });
}

const cardNames = () =>
  screen
    .getAllByRole('listitem')
    .map((card) => within(card).queryByRole('heading', { level: 3 })?.textContent)
    .filter((name) => name !== undefined)
    .slice(0, 4);

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
    startSession({
      token: 'tok',
      account: 'a@example.com',
      expire_user: 0,
      subscribe_type: 1,
      invite_code: '',
      connections: 1,
    });
    await renderPage();
    expect(screen.queryByRole('link', { name: 'Create a free account' })).toBeNull();
    const consoleLinks = screen.getAllByRole('link', { name: 'Go to console' });
    expect(consoleLinks.map((link) => link.getAttribute('href'))).toEqual(['/buy', '/buy']);
  });
});
