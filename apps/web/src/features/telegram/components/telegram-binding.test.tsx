import { fireEvent, screen } from '@testing-library/react';
import type { TelegramBinding as Binding } from '@skyway/shared/schemas/telegram';
import { beforeEach, describe, expect, it } from 'vitest';
import { answer, ok, requestsTo, sentTo } from '../../../test/network.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { signIn } from '../../../test/user-info.ts';
import { TelegramBinding } from './telegram-binding.tsx';

const unbound: Binding = { available: true, bound: false, mail_off: false, bot_username: 'skyway_bot' };
const bound: Binding = { ...unbound, bound: true };

async function renderCard(binding: Binding) {
  answer('/web/telegram/binding', ok(binding));
  await renderWithProviders([{ path: '*', element: <TelegramBinding /> }], { url: '/' });
}

beforeEach(() => {
  signIn({ expire_user: 1_900_000_000, connections: 1 });
});

describe('the Telegram binding card', () => {
  it('gives a one-time link to the bot, and shows the binding once Start was pressed there', async () => {
    await renderCard(unbound);
    const url = 'https://t.me/skyway_bot?start=abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG';
    answer('/web/telegram/link', ok({ url, expires_at: '2026-11-28T10:00:00.000Z' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Bind Telegram' }));
    const open = await screen.findByRole('link', { name: /Open @skyway_bot and press Start/ });
    expect(open.getAttribute('href')).toBe(url);
    expect(screen.getByText('The link works once, for 10 minutes.')).toBeTruthy();
    // The customer pressed Start: the card, reading the binding again, shows it.
    answer('/web/telegram/binding', ok(bound));
    expect(await screen.findByText(/Your account is bound to Telegram/, {}, { timeout: 5_000 })).toBeTruthy();
  });

  it('turns mail off for reminders and notices, and unbinds', async () => {
    await renderCard(bound);
    answer('/web/telegram/mail', ok({ ...bound, mail_off: true }));
    fireEvent.click(await screen.findByRole('switch'));
    await screen.findByRole('switch', { checked: false });
    expect(await sentTo('/web/telegram/mail')).toEqual([{ mail_off: true }]);
    answer('/web/telegram/unbind', ok(unbound));
    fireEvent.click(screen.getByRole('button', { name: 'Unbind' }));
    expect(await screen.findByRole('button', { name: 'Bind Telegram' })).toBeTruthy();
    expect(requestsTo('/web/telegram/unbind')).toHaveLength(1);
  });

  it('shows nothing while the site has no bot', async () => {
    await renderCard({ available: false, bound: false, mail_off: false, bot_username: null });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(screen.queryByText('Telegram')).toBeNull();
  });
});
