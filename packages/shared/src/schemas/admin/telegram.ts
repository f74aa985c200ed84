import { z } from 'zod';

/** The back office's bot settings: never the token, which goes in and does not come out. */
export const telegramBotSettingsSchema = z.object({
  configured: z.boolean(),
  username: z.string().nullable(),
  /** `webhook` when the site has a public address, `polling` otherwise. */
  mode: z.enum(['webhook', 'polling']),
});
export type TelegramBotSettings = z.infer<typeof telegramBotSettingsSchema>;

/** A bot token as BotFather gives it: the bot's id, a colon, 35 characters. */
export const telegramBotTokenRequest = z.object({
  token: z
    .string()
    .trim()
    .regex(/^\d{1,20}:[A-Za-z0-9_-]{30,60}$/),
});
export type TelegramBotTokenRequest = z.infer<typeof telegramBotTokenRequest>;

export const telegramBotTestSchema = z.object({ ok: z.boolean(), username: z.string().nullable() });
