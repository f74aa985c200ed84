import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { answer, ok, refused, requestsTo } from '../../../test/network.ts';
import { renderScreen } from '../../../test/render.tsx';
import { signedInAs } from '../../../test/session.ts';
import type { Mail } from '../api/list-mail.ts';
import { MailPage } from './mail-page.tsx';

const failed: Mail = {
  id: '00000000-0000-4000-8000-000000000042',
  to: 'customer@example.com',
  template: 'login_code',
  language: 'en',
  subject: 'Your sign-in code',
  status: 'failed',
  attempts: 5,
  error: 'connection refused',
  user_id: null,
  created_at: '2026-03-01T08:00:00.000Z',
  next_attempt_at: '2026-03-01T08:00:00.000Z',
  sent_at: null,
};

const answerOutbox = () =>
  answer('GET', '/mail', ok({ total: 1, page: 1, size: 20, items: [failed], total_capped: false }));

describe('the mail log', () => {
  it('sends a failed message again when asked', async () => {
    signedInAs('support');
    answerOutbox();
    answer('POST', '/mail/:id/retry', ok());
    await renderScreen(<MailPage />);
    expect(await screen.findByText('Your sign-in code')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Send again' }));
    await waitFor(async () => {
      expect(await requestsTo('POST', `/mail/${failed.id}/retry`)).toHaveLength(1);
    });
  });

  it("shows the server's refusal in its own words", async () => {
    signedInAs('support');
    answerOutbox();
    answer('POST', '/mail/:id/retry', refused(409, 'This message was sent meanwhile'));
    await renderScreen(<MailPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Send again' }));
    expect(await screen.findByText('This message was sent meanwhile')).toBeTruthy();
  });
});
