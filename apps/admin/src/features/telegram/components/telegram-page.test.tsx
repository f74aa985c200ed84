import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { answer, ok, refused, requestsTo } from '../../../test/network.ts';
import { renderScreen } from '../../../test/render.tsx';
import { signedInAs } from '../../../test/session.ts';
import { TelegramPage } from './telegram-page.tsx';

const TOKEN = '123456:AAHtest-telegram-bot-token-0123456789ab';

describe('the Telegram bot page', () => {
  it('is not for support', async () => {
    signedInAs('support');
    await renderScreen(<TelegramPage />);
    expect(await screen.findByText('Your role does not allow this page')).toBeTruthy();
  });

  it('saves a token (never showing it again), says what Telegram refused, and tests the bot', async () => {
    signedInAs('owner');
    answer('GET', '/telegram/bot', ok({ configured: false, username: null, mode: 'polling' }));
    await renderScreen(<TelegramPage />);
    expect(await screen.findByText('Not set')).toBeTruthy();
    expect(screen.getByText('Long polling (no public address)')).toBeTruthy();

    answer(
      'POST',
      '/telegram/bot',
      refused(400, 'Telegram did not accept this bot token', { reason: 'telegram_token_invalid' }),
    );
    fireEvent.change(screen.getByLabelText('Bot token'), { target: { value: TOKEN } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Telegram did not accept this bot token')).toBeTruthy();

    answer('POST', '/telegram/bot', ok({ configured: true, username: 'skyway_bot', mode: 'polling' }));
    answer('GET', '/telegram/bot', ok({ configured: true, username: 'skyway_bot', mode: 'polling' }));
    fireEvent.change(screen.getByLabelText('Bot token'), { target: { value: TOKEN } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('@skyway_bot')).toBeTruthy();
    const sent = (await requestsTo('POST', '/telegram/bot')).map((request) => request.body);
    expect(sent.at(-1)).toEqual({ token: TOKEN });
    await waitFor(() => expect((screen.getByLabelText('Bot token') as HTMLInputElement).value).toBe(''));

    answer('POST', '/telegram/bot/test', ok({ ok: true, username: 'skyway_bot' }));
    fireEvent.click(screen.getByRole('button', { name: 'Test' }));
    expect(await screen.findByText('Telegram answers as @skyway_bot')).toBeTruthy();
  });

  it('refuses what is not a bot token before sending it', async () => {
    signedInAs('owner');
    answer('GET', '/telegram/bot', ok({ configured: false, username: null, mode: 'webhook' }));
    await renderScreen(<TelegramPage />);
    expect(await screen.findByText('Webhook (the site has a public address)')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Bot token'), { target: { value: 'not a token' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('A bot token looks like 123456789:AA…')).toBeTruthy();
    expect(await requestsTo('POST', '/telegram/bot')).toEqual([]);
  });
});
