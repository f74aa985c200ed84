import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { TelegramBotSettings, telegramBotTestSchema } from '@skyway/shared/schemas/admin/telegram';
import { api } from '../../../lib/api-client.ts';

export const TELEGRAM_BOT_KEY = ['/telegram/bot'];

/** The bot as the server has it: set or not, its @username, webhook or polling (never its token). */
export const useTelegramBot = (enabled: boolean) =>
  useQuery({
    queryKey: TELEGRAM_BOT_KEY,
    queryFn: () => api<TelegramBotSettings>('GET', '/telegram/bot'),
    enabled,
  });

/** Saves a new token: the server checks it with Telegram first. */
export const saveTelegramToken = (token: string) =>
  api<TelegramBotSettings>('POST', '/telegram/bot', { token });

/** Asks Telegram whether the saved token still opens the bot. */
export const testTelegramBot = () =>
  api<z.infer<typeof telegramBotTestSchema>>('POST', '/telegram/bot/test', {});
