import { act, render, screen, within } from '@testing-library/react';
import { Suspense, useLayoutEffect } from 'react';
import { createMemoryRouter, Outlet, RouterProvider, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('../../../lib/site-conf.ts', () => ({
  useSiteConf: () => ({
    data: { site_name: 'Skyway Test', support_email: 'help@example.com', downloads: [], signing: false },
  }),
}));

const { LegalPage } = await import('./legal-page.tsx');

let scrolls: string[] = [];

/** Stands in for the app shell, which scrolls to the top in a layout effect on every navigation. */
function Shell() {
  const location = useLocation();
  useLayoutEffect(() => {
    window.scrollTo(0, 0);
  }, [location.key]);
  return <Outlet />;
}

async function renderAt(path: string) {
  const router = createMemoryRouter(
    [
      {
        element: <Shell />,
        children: [
          { path: '/privacy', element: <LegalPage document="privacy" /> },
          { path: '/service', element: <LegalPage document="service" /> },
          { path: '/use', element: <LegalPage document="use" /> },
        ],
      },
    ],
    { initialEntries: [path] },
  );
  render(
    <Suspense fallback={null}>
      <RouterProvider router={router} />
    </Suspense>,
  );
  await screen.findByRole('heading', { level: 1 });
  await act(() => Promise.resolve());
  return router;
}

beforeEach(() => {
  scrolls = [];
  vi.spyOn(window, 'scrollTo').mockImplementation(() => scrolls.push('top'));
  Element.prototype.scrollIntoView = vi.fn(function (this: Element) {
    scrolls.push(`#${this.id}`);
  });
});

afterEach(() => {
  Reflect.deleteProperty(Element.prototype, 'scrollIntoView');
});

describe('LegalPage', () => {
  it.each([
    ['/privacy', 'Privacy policy'],
    ['/service', 'Service agreement'],
    ['/use', 'Terms of use'],
  ])(
    '%s has one h1, its date, and a table of contents that links every section heading',
    async (path, title) => {
      await renderAt(path);
      const h1s = screen.getAllByRole('heading', { level: 1 });
      expect(h1s.map((heading) => heading.textContent)).toEqual([title]);
      expect(screen.getByText('2026-11-22').getAttribute('datetime')).toBe('2026-11-22');

      const headings = screen.getAllByRole('heading', { level: 2 });
      const toc = screen.getByRole('navigation', { name: 'On this page' });
      const tocLinks = within(toc).getAllByRole('link');
      expect(tocLinks.map((link) => link.textContent)).toEqual(
        headings.map((heading) => heading.textContent),
      );
      expect(tocLinks.map((link) => link.getAttribute('href'))).toEqual(
        headings.map((heading) => `#${heading.id}`),
      );

      for (const heading of headings) {
        const anchor = screen.getByRole('link', { name: `Link to this section: ${heading.textContent}` });
        expect(anchor.getAttribute('href')).toBe(`#${heading.id}`);
      }
      expect(new Set(headings.map((heading) => heading.id)).size).toBe(headings.length);
    },
  );

  it('links the support address from the configuration wherever the text names it', async () => {
    await renderAt('/service');
    const mailLinks = screen.getAllByRole('link', { name: 'help@example.com' });
    expect(mailLinks.length).toBeGreaterThan(3);
    for (const link of mailLinks) expect(link.getAttribute('href')).toBe('mailto:help@example.com');
    expect(screen.getByText(/Skyway Test/, { selector: '.legal__intro' })).toBeTruthy();
  });

  it('opens on the section named by the hash, after the shell has scrolled to the top', async () => {
    await renderAt('/service#automatic-renewal');
    expect(screen.getByRole('heading', { level: 2, name: 'Automatic renewal' }).id).toBe('automatic-renewal');
    expect(scrolls.at(-1)).toBe('#automatic-renewal');
  });

  it('follows a later change of hash, such as a click in the table of contents', async () => {
    const router = await renderAt('/service');
    expect(scrolls).toEqual(['top']);
    await act(() => router.navigate('/service#refunds'));
    expect(scrolls).toEqual(['top', 'top', '#refunds']);
  });
});
