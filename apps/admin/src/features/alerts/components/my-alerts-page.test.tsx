import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { MyAlerts } from '@skyway/shared/schemas/admin/alerts';
import { formatDateTime } from '@skyway/shared/dates';
import { answer, ok, refused, requestsTo } from '../../../test/network.ts';
import { renderScreen } from '../../../test/render.tsx';
import { signedInAs } from '../../../test/session.ts';
import { MyAlertsPage } from './my-alerts-page.tsx';

const unbound: MyAlerts = {
  channel: 'mail',
  kinds: [],
  delivery: 'at_once',
  telegram: { available: true, bound: false, bound_at: null, bot_username: 'skyway_bot' },
};

describe('My alerts', () => {
  it('lets any member, support included, choose their kinds and a daily digest, and sends only their own choice', async () => {
    signedInAs('support');
    answer('GET', '/me/alerts', ok(unbound));
    await renderScreen(<MyAlertsPage />);
    expect(await screen.findByText('Not bound')).toBeTruthy();
    // Telegram is offered once the chat is bound.
    expect((screen.getByLabelText('Telegram (once bound)') as HTMLInputElement).disabled).toBe(true);

    const saved: MyAlerts = { ...unbound, kinds: ['job_failing', 'attention'], delivery: 'digest' };
    answer('POST', '/me/alerts', ok(saved));
    answer('GET', '/me/alerts', ok(saved));
    fireEvent.click(screen.getByLabelText('A job fails twice in a row'));
    fireEvent.click(screen.getByLabelText('Something new waits in the attention queue'));
    fireEvent.click(screen.getByLabelText('A daily digest at 09:00 (UTC+8)'));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(async () =>
      expect((await requestsTo('POST', '/me/alerts')).map((request) => request.body)).toEqual([
        { channel: 'mail', kinds: ['job_failing', 'attention'], delivery: 'digest' },
      ]),
    );
    expect(await screen.findByText('Done')).toBeTruthy();
  });

  it('makes a one-time link to the bot, shows the binding with its date, and unbinds', async () => {
    signedInAs('viewer');
    answer('GET', '/me/alerts', ok(unbound));
    await renderScreen(<MyAlertsPage />);
    const expires = '2026-03-01T10:10:00.000Z';
    answer(
      'POST',
      '/me/alerts/telegram/link',
      ok({ url: 'https://t.me/skyway_bot?start=abc', expires_at: expires }),
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Make a link to bind' }));
    const open = await screen.findByText('Open @skyway_bot');
    expect(open.closest('a')?.getAttribute('href')).toBe('https://t.me/skyway_bot?start=abc');
    expect(screen.getByText(new RegExp(formatDateTime(expires)))).toBeTruthy();

    const boundAt = '2026-03-01T10:05:00.000Z';
    const bound: MyAlerts = {
      ...unbound,
      channel: 'telegram',
      telegram: { ...unbound.telegram, bound: true, bound_at: boundAt },
    };
    answer('GET', '/me/alerts', ok(bound));
    answer('POST', '/me/alerts/telegram/unbind', ok({ ...bound, telegram: unbound.telegram }));
    fireEvent.click(screen.getByRole('button', { name: 'Make a link to bind' }));
    expect(await screen.findByText(`Bound since ${formatDateTime(boundAt)}`)).toBeTruthy();
    expect(formatDateTime(boundAt)).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);

    answer('GET', '/me/alerts', ok({ ...bound, telegram: unbound.telegram }));
    fireEvent.click(screen.getByRole('button', { name: 'Unbind' }));
    expect(await screen.findByText('Not bound')).toBeTruthy();
    expect(
      await screen.findByText(
        'Your Telegram chat is no longer bound: your alerts come by mail until you bind it again.',
      ),
    ).toBeTruthy();
  });

  it('says why the server refused a choice', async () => {
    signedInAs('finance');
    answer('GET', '/me/alerts', ok(unbound));
    await renderScreen(<MyAlertsPage />);
    answer(
      'POST',
      '/me/alerts',
      refused(409, 'Your account is not bound to Telegram', { reason: 'telegram_not_bound' }),
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Your account is not bound to Telegram')).toBeTruthy();
  });
});
