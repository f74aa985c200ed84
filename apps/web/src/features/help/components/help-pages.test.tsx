import { fireEvent, screen } from '@testing-library/react';
import type { HelpArticle } from '@skyway/shared/schemas/help';
import { describe, expect, it } from 'vitest';
import { i18n } from '../../../lib/i18n.ts';
import { answer, noReply, ok, refused, requestsTo, sentTo } from '../../../test/network.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { signIn } from '../../../test/user-info.ts';
import { HelpArticlePage } from './help-article-page.tsx';
import { HelpPage } from './help-page.tsx';
import { HelpSuggestions } from './help-suggestions.tsx';

const ARTICLE: HelpArticle = {
  slug: 'flclash',
  title: 'FlClash tutorial',
  category: 'clients',
  html: '<p>Import your link:</p><div data-help-device=""></div><p>See <a href="/nodes">node status</a>.</p>',
  update_time: 1_800_000_000,
};

/** What fills a device placeholder in these tests: the app puts My devices' picker there. */
function OwnDevices() {
  return <p>my own devices</p>;
}

async function renderArticle(slug = 'flclash') {
  return renderWithProviders(
    [
      { path: '/help/:slug', element: <HelpArticlePage deviceLinks={OwnDevices} /> },
      { path: '/login', element: <p>the sign-in page</p> },
      { path: '/nodes', element: <p>the node status page</p> },
    ],
    { url: `/help/${slug}` },
  );
}

describe('the help center', () => {
  it('lists the articles under their categories, in order', async () => {
    answer(
      '/web/help/list',
      ok({
        list: [
          { slug: 'getting-started', title: 'Getting started', category: 'getting_started' },
          { slug: 'flclash', title: 'FlClash tutorial', category: 'clients' },
          { slug: 'cannot-connect', title: 'Cannot connect', category: 'troubleshooting' },
        ],
      }),
    );
    await renderWithProviders(<HelpPage />, { url: '/help' });
    const clients = await screen.findByRole('heading', { name: 'Clients' });
    expect(clients.closest('section')?.textContent).toContain('FlClash tutorial');
    expect(screen.getByRole('link', { name: 'Cannot connect' }).getAttribute('href')).toBe(
      '/help/cannot-connect',
    );
    expect(screen.queryByRole('heading', { name: 'Payments' })).toBeNull();
  });

  it('searches as the visitor types and links each match', async () => {
    answer('/web/help/list', ok({ list: [] }));
    answer('/web/help/search', (payload) =>
      ok({
        list:
          payload.q === '连接'
            ? [
                {
                  slug: 'cannot-connect',
                  title: '无法连接怎么办',
                  category: 'troubleshooting',
                  excerpt: '…无法连接…',
                },
              ]
            : [],
      }),
    );
    await renderWithProviders(<HelpPage />, { url: '/help' });
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search the help center' }), {
      target: { value: '连接' },
    });
    const match = await screen.findByRole('link', { name: '无法连接怎么办' });
    expect(match.getAttribute('href')).toBe('/help/cannot-connect');
    expect(await sentTo('/web/help/search')).toEqual([{ q: '连接' }]);

    fireEvent.change(screen.getByRole('searchbox'), { target: { value: 'nothing' } });
    await screen.findByText('No article matches “nothing”.');
  });

  it('suggests articles for a text (a ticket subject), and asks nothing for an empty one', async () => {
    answer(
      '/web/help/search',
      ok({
        list: [{ slug: 'payments', title: 'Paying and renewing', category: 'payments', excerpt: 'Plans…' }],
      }),
    );
    await renderWithProviders(<HelpSuggestions text="  " heading="Maybe these help" />);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(requestsTo('/web/help/search')).toHaveLength(0);
    expect(screen.queryByText('Maybe these help')).toBeNull();

    await renderWithProviders(<HelpSuggestions text="refund my payment" heading="Maybe these help" />);
    expect(await screen.findByText('Maybe these help')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Paying and renewing' }).getAttribute('href')).toBe(
      '/help/payments',
    );
    expect(await sentTo('/web/help/search')).toEqual([{ q: 'refund my payment' }]);
  });

  it('shows a signed-out reader a prompt to sign in where a device link would be', async () => {
    answer('/web/help/article', ok(ARTICLE));
    await renderArticle();
    await screen.findByRole('heading', { name: 'FlClash tutorial' });
    expect(await screen.findByText(/Sign in to see your own device link/)).toBeTruthy();
    expect(screen.queryByText('my own devices')).toBeNull();
    fireEvent.click(screen.getByRole('link', { name: 'Log in' }));
    await screen.findByText('the sign-in page');
  });

  it("fills a signed-in customer's device placeholder, and keeps the site's links in the app", async () => {
    signIn({ expire_user: 1_900_000_000 });
    answer('/web/help/article', ok(ARTICLE));
    await renderArticle();
    expect(await screen.findByText('my own devices')).toBeTruthy();
    expect(screen.queryByText(/Sign in to see/)).toBeNull();
    fireEvent.click(screen.getByRole('link', { name: 'node status' }));
    await screen.findByText('the node status page');
  });

  it('says so when an article does not exist, in the reader language', async () => {
    answer('/web/help/article', refused(404, '未找到', { reason: 'not_found' }));
    await i18n.changeLanguage('zh');
    try {
      await renderArticle('gone');
      expect(await screen.findByText('该文章不存在或已下线。')).toBeTruthy();
      expect(await sentTo('/web/help/article')).toEqual([{ slug: 'gone' }]);
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it('offers to try again when the article could not be fetched, and shows it once it can', async () => {
    answer('/web/help/article', noReply);
    await renderArticle();
    const retry = await screen.findByRole('button', { name: 'Try again' });
    expect(screen.queryByText('This article does not exist or is no longer published.')).toBeNull();
    answer('/web/help/article', ok(ARTICLE));
    fireEvent.click(retry);
    expect(await screen.findByRole('heading', { name: 'FlClash tutorial' })).toBeTruthy();
  });
});
