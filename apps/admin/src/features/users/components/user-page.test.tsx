import { CSRF_HEADER } from '@skyway/shared/staff';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { answer, ok, refused, requestsTo } from '../../../test/network.ts';
import { renderScreen } from '../../../test/render.tsx';
import { signedInAs } from '../../../test/session.ts';
import type { UserDetail } from '../api/get-user.ts';
import { UserPage } from './user-page.tsx';

const ID = '00000000-0000-4000-8000-000000000007';

const user: UserDetail = {
  id: ID,
  email: 'alice@example.com',
  invite_code: 'ALICE1',
  language: 'en',
  created_at: '2026-03-01T08:00:00.000Z',
  last_login_at: null,
  expire_at: null,
  connections: 2,
  subscribe_type: 2,
  disabled: false,
  pending_connections: null,
  pending_from: null,
  auto_renew: false,
  inactive_warned_at: null,
  invited_by: null,
  trial: null,
  app_store: [],
  live_sessions: 1,
};

function answerAccount() {
  answer('GET', `/users/${ID}`, ok(user));
  answer('GET', `/users/${ID}/:section`, ({ url }) =>
    ok({ total: 0, page: Number(url.searchParams.get('page')), size: 20, items: [] }),
  );
}

const openAccount = () => renderScreen(<UserPage />, { url: `/users/${ID}`, path: '/users/:id' });

describe("an account's page", () => {
  it('offers a viewer no change to the account', async () => {
    signedInAs('viewer');
    answerAccount();
    await openAccount();
    await screen.findByText('alice@example.com');
    expect(screen.queryByRole('button', { name: 'Adjust time' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'End all sessions' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Disable account' })).toBeNull();
  });

  it('sends the days, hours and reason an admin gives the account', async () => {
    signedInAs('admin');
    answerAccount();
    answer('POST', `/users/${ID}/time`, ok({ expire_at: '2026-04-01T08:00:00.000Z' }));
    await openAccount();
    fireEvent.click(await screen.findByRole('button', { name: 'Adjust time' }));
    fireEvent.change(await screen.findByLabelText('Days'), { target: { value: '3' } });
    fireEvent.change(screen.getByLabelText('Hours'), { target: { value: '-2' } });
    fireEvent.change(screen.getByLabelText('Why (kept in the audit log)'), {
      target: { value: 'Outage on the Tokyo nodes' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Done')).toBeTruthy();
    const sent = await requestsTo('POST', `/users/${ID}/time`);
    expect(sent.map((call) => call.body)).toEqual([
      { days: 3, hours: -2, reason: 'Outage on the Tokyo nodes' },
    ]);
    expect(sent[0]?.headers.get(CSRF_HEADER)).toBe('csrf-token');
  });

  it('keeps the dialog open with the refusal the server gave', async () => {
    signedInAs('admin');
    answerAccount();
    answer('POST', `/users/${ID}/time`, refused(403, 'Your role may not do this'));
    await openAccount();
    fireEvent.click(await screen.findByRole('button', { name: 'Adjust time' }));
    fireEvent.change(await screen.findByLabelText('Days'), { target: { value: '1' } });
    fireEvent.change(screen.getByLabelText('Why (kept in the audit log)'), { target: { value: 'Goodwill' } });
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Your role may not do this')).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('dialog')).toBeTruthy());
  });
});
