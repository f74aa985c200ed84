import { z } from 'zod';

/** The console's Telegram card: whether the site has a bot, and whether this account is bound to it. */
export const telegramBindingSchema = z.object({
  /** The site has a bot set up: binding is possible. */
  available: z.boolean(),
  bound: z.boolean(),
  /** Bound and taking reminders and notices by Telegram alone, without the mail. */
  mail_off: z.boolean(),
  /** The bot's @username, to open it; null without a bot. */
  bot_username: z.string().nullable(),
});
export type TelegramBinding = z.infer<typeof telegramBindingSchema>;

/** A one-time deep link to the bot that binds the account: valid 10 minutes, used once. */
export const telegramBindLinkSchema = z.object({
  url: z.string(),
  expires_at: z.string(),
});
export type TelegramBindLink = z.infer<typeof telegramBindLinkSchema>;

/** How long a bind link stays valid. */
export const TELEGRAM_BIND_LINK_MINUTES = 10;

/** Reminders and notices by Telegram alone (true), or by mail as well (false). */
export const telegramMailRequest = z.object({ mail_off: z.boolean() });
