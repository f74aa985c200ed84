import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { answer, ok, refused, requestsTo } from '../../../test/network.ts';
import { renderScreen } from '../../../test/render.tsx';
import { signedInAs } from '../../../test/session.ts';
import type { UserSummary } from '../api/list-users.ts';
import { UsersPage } from './users-page.tsx';

const account = (n: number): UserSummary => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  email: `customer${n}@example.com`,
  invite_code: `CODE${n}`,
  language: 'en',
  created_at: '2026-03-01T08:00:00.000Z',
  last_login_at: null,
  expire_at: null,
  connections: 2,
  subscribe_type: 1,
  disabled: n === 2,
});

/** The server's pages of 20 accounts out of 45, each page its own accounts. */
function answerAccounts() {
  answer('GET', '/users', ({ url }) => {
    const page = Number(url.searchParams.get('page'));
    const size = Number(url.searchParams.get('size'));
    const items = Array.from({ length: Math.min(size, 45 - (page - 1) * size) }, (_, i) =>
      account((page - 1) * size + i + 1),
    );
    return ok({ total: 45, page, size, items, total_capped: false });
  });
}

describe('the accounts list', () => {
  it('shows the accounts the server sends, each linking to its page, with its state', async () => {
    signedInAs('support');
    answerAccounts();
    await renderScreen(<UsersPage />);
    const link = await screen.findByRole('link', { name: 'customer1@example.com' });
    expect(link.getAttribute('href')).toBe(`/users/${account(1).id}`);
    expect(screen.getByText('45 in all')).toBeTruthy();
    const disabledRow = screen.getByText('customer2@example.com').closest('tr') as HTMLElement;
    expect(within(disabledRow).getByText('Disabled')).toBeTruthy();
  });

  it('moves to the next page by asking the server for it', async () => {
    signedInAs('support');
    answerAccounts();
    await renderScreen(<UsersPage />);
    await screen.findByText('customer1@example.com');
    fireEvent.click(screen.getByTitle('2'));
    await screen.findByText('customer21@example.com');
    expect(screen.queryByText('customer1@example.com')).toBeNull();
    const pages = (await requestsTo('GET', '/users')).map((call) => call.url.searchParams.get('page'));
    expect(pages).toEqual(['1', '2']);
  });

  it('searches with what the member typed, trimmed', async () => {
    signedInAs('support');
    answerAccounts();
    await renderScreen(<UsersPage />);
    await screen.findByText('customer1@example.com');
    fireEvent.change(screen.getByPlaceholderText(/e-mail/i), { target: { value: '  alice ' } });
    fireEvent.click(screen.getByRole('button', { name: /search/i }));
    await waitFor(async () => {
      const searches = (await requestsTo('GET', '/users')).map((call) => call.url.searchParams.get('q'));
      expect(searches).toContain('alice');
    });
  });

  it("shows the server's refusal in its own words", async () => {
    signedInAs('support');
    answer('GET', '/users', refused(500, 'The list could not be read just now'));
    await renderScreen(<UsersPage />);
    expect(await screen.findByText('The list could not be read just now')).toBeTruthy();
  });
});
