import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { answer, ok, requestsTo } from '../../../test/network.ts';
import { renderScreen } from '../../../test/render.tsx';
import { signedInAs } from '../../../test/session.ts';
import type { Notice } from '../api/list-notices.ts';
import { NoticesPage } from './notices-page.tsx';

const inEach = (text: string) => ({ en: text, zh: text, tw: text });

const draft: Notice = {
  id: '00000000-0000-4000-8000-000000000077',
  state: 'draft',
  title: inEach('Maintenance tonight'),
  body: inEach('Nodes restart at 02:00.'),
  body_html: inEach('<p>Nodes restart at 02:00.</p>'),
  audience: 'all',
  on_download_page: false,
  by_mail: false,
  mailed: 0,
  mailed_at: null,
  publish_at: null,
  expire_at: null,
  created_at: '2026-03-01T08:00:00.000Z',
  updated_at: '2026-03-01T08:00:00.000Z',
};

const answerNotices = () =>
  answer('GET', '/announcements', ok({ total: 1, page: 1, size: 20, items: [draft], total_capped: false }));

describe('the notices page', () => {
  it('shows a viewer the notices but nothing to write or publish', async () => {
    signedInAs('viewer');
    answerNotices();
    await renderScreen(<NoticesPage />);
    expect(await screen.findByText('Maintenance tonight')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /New notice/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /Publish now/ })).toBeNull();
  });

  it('publishes a draft once support confirms', async () => {
    signedInAs('support');
    answerNotices();
    answer('POST', '/announcements/:id/publish', ok());
    await renderScreen(<NoticesPage />);
    fireEvent.click(await screen.findByRole('button', { name: /Publish now/ }));
    const confirm = await screen.findAllByRole('button', { name: /Publish now/ });
    fireEvent.click(confirm[confirm.length - 1] as HTMLElement);
    await waitFor(async () => {
      expect(await requestsTo('POST', `/announcements/${draft.id}/publish`)).toHaveLength(1);
    });
  });
});
