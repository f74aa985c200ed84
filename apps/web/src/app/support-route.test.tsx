import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { answer, ok, sentTo } from '../test/network.ts';
import { renderWithProviders } from '../test/render.tsx';
import { signIn } from '../test/user-info.ts';
import { SupportRoute } from './support-route.tsx';

describe('a new ticket on the Support page', () => {
  it('suggests the help articles that match its subject before it is sent', async () => {
    signIn();
    answer('/web/ticket/list', ok({ total: 0, unread: 0, list: [] }));
    answer('/web/help/search', (payload) =>
      ok({
        list:
          payload.q === 'cannot connect'
            ? [
                {
                  slug: 'cannot-connect',
                  title: 'When it does not connect',
                  category: 'troubleshooting',
                  excerpt: 'Check the server status first…',
                },
              ]
            : [],
      }),
    );
    await renderWithProviders([{ path: '/support', element: <SupportRoute /> }], { url: '/support' });
    fireEvent.click(await screen.findByRole('button', { name: /New ticket/ }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('Subject'), { target: { value: 'cannot connect' } });

    const article = await within(dialog).findByRole('link', { name: 'When it does not connect' });
    expect(article.getAttribute('href')).toBe('/help/cannot-connect');
    expect(within(dialog).getByText('These articles may already answer it:')).toBeTruthy();
    expect(await sentTo('/web/help/search')).toEqual([{ q: 'cannot connect' }]);
  });
});
