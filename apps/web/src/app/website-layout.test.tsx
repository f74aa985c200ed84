import { act, render, screen, within } from '@testing-library/react';
import { MemoryRouter, useRoutes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearSession, startSession } from '../lib/session.ts';

vi.mock('../lib/site-conf.ts', () => ({
  useSiteConf: () => ({
    data: { site_name: 'Skyway Test', support_email: 'help@example.com', downloads: [], signing: false },
  }),
}));

const { AppShell } = await import('./app-shell.tsx');
const { WebsiteLayout } = await import('./website-layout.tsx');

function renderAt(path: string) {
  const routes = [
    {
      element: <AppShell />,
      children: [
        {
          element: <WebsiteLayout />,
          children: ['/download', '/privacy', '/service', '/use', '/login'].map((page) => ({
            path: page,
            element: <h1>page {page}</h1>,
          })),
        },
        { path: '/buy', element: <h1>console</h1> },
      ],
    },
  ];
  function Routes() {
    return useRoutes(routes);
  }
  render(
    <MemoryRouter initialEntries={[path]}>
      <Routes />
    </MemoryRouter>,
  );
}

afterEach(() => {
  clearSession();
});

describe('WebsiteLayout', () => {
  it('marks the current item and offers Login and Register when signed out', () => {
    renderAt('/privacy');
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    expect(within(nav).getByRole('link', { name: 'Privacy policy' }).getAttribute('aria-current')).toBe(
      'page',
    );
    expect(within(nav).getByRole('link', { name: 'Download' }).getAttribute('aria-current')).toBeNull();
    expect(within(nav).getByRole('link', { name: 'Log in' }).getAttribute('href')).toBe('/login');
    expect(within(nav).getByRole('link', { name: 'Register' }).getAttribute('href')).toBe(
      '/login?formType=regist',
    );
    expect(within(nav).queryByRole('link', { name: 'Console' })).toBeNull();
  });

  it('offers the console when signed in', () => {
    startSession({
      token: 'tok',
      account: 'a@example.com',
      expire_user: 0,
      subscribe_type: 1,
      invite_code: '',
      connections: 1,
    });
    renderAt('/download');
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    expect(within(nav).getByRole('link', { name: 'Console' }).getAttribute('href')).toBe('/buy');
    expect(within(nav).queryByRole('link', { name: 'Register' })).toBeNull();
  });

  it('links the three legal pages from the footer, with the support address', () => {
    renderAt('/download');
    const footer = screen.getByRole('contentinfo');
    const links = within(footer)
      .getAllByRole('link')
      .map((link) => link.getAttribute('href'));
    expect(links).toEqual(['/privacy', '/service', '/use', 'mailto:help@example.com']);
  });

  it('takes the scrolled style past its own height', () => {
    renderAt('/download');
    const header = screen.getByRole('banner');
    vi.spyOn(header, 'offsetHeight', 'get').mockReturnValue(68);
    act(() => {
      window.scrollY = 69;
      window.dispatchEvent(new Event('scroll'));
    });
    expect(header.className).toContain('site-header--scrolled');
    act(() => {
      window.scrollY = 10;
      window.dispatchEvent(new Event('scroll'));
    });
    expect(header.className).not.toContain('site-header--scrolled');
  });

  it('sends a signed-out visitor of a console page to /login through the guard', () => {
    renderAt('/buy');
    expect(screen.getByRole('heading', { name: 'page /login' })).toBeTruthy();
  });
});
