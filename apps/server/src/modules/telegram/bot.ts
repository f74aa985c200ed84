import { createHmac } from 'node:crypto';
import { Bot } from 'grammy';
import type { Database } from '../../db/client.ts';
import { openKeys, sealKeys } from '../gateways/secrets.ts';
import { findBot, type TelegramBotRow } from './repository.ts';
import { installUpdateHandlers } from './updates.ts';

/** The additional data the bot's token is sealed with: a gateway's sealed keys do not open as it. */
const SEAL_ID = 'telegram-bot';

export const sealBotToken = (secretsKey: Buffer, token: string) => sealKeys(secretsKey, SEAL_ID, { token });

export function openBotToken(secretsKey: Buffer, row: TelegramBotRow): string {
  const token = openKeys(secretsKey, SEAL_ID, row.sealedToken).token;
  if (!token) throw new Error('the sealed bot token is empty');
  return token;
}

/**
 * The secret Telegram sends in `X-Telegram-Bot-Api-Secret-Token` with each webhook call: derived
 * from the token under SECRETS_KEY, so it changes with the token and is never stored.
 */
export const webhookSecret = (secretsKey: Buffer, token: string) =>
  createHmac('sha256', secretsKey).update(`telegram-webhook:${token}`).digest('base64url');

export const webhookUrl = (publicUrl: string) => `${publicUrl}/telegram/webhook`;

export interface LoadedBot {
  /** grammY's bot: its `api` sends, its `handleUpdate` answers updates. */
  bot: Bot;
  username: string;
  secret: string;
  /** The row's version: the worker sets the webhook or polling up again when it changes. */
  version: string;
}

/**
 * The configured bot, built once per token and kept until the token changes (any instance: the
 * webhook may reach any of them). Undefined while no token is set or SECRETS_KEY is missing.
 */
export function createBotLoader(db: Database, secretsKey: Buffer | undefined, apiRoot: string) {
  let cached: LoadedBot | undefined;
  return async function loadBot(): Promise<LoadedBot | undefined> {
    if (!secretsKey) return undefined;
    const row = await findBot(db);
    if (!row) return undefined;
    const version = `${row.updatedAt.getTime()}:${row.sealedToken.slice(-16)}`;
    if (cached?.version === version) return cached;
    const token = openBotToken(secretsKey, row);
    const bot = new Bot(token, {
      client: { apiRoot },
      // From getMe when the token was saved: no call to Telegram before the first update.
      botInfo: {
        id: Number(token.split(':')[0]),
        is_bot: true,
        first_name: row.username,
        username: row.username,
        can_join_groups: false,
        can_read_all_group_messages: false,
        supports_inline_queries: false,
        can_connect_to_business: false,
        has_main_web_app: false,
        has_topics_enabled: false,
        allows_users_to_create_topics: false,
        can_manage_bots: false,
        supports_join_request_queries: false,
      },
    });
    installUpdateHandlers(bot, db);
    cached = { bot, username: row.username, secret: webhookSecret(secretsKey, token), version };
    return cached;
  };
}

export type BotLoader = ReturnType<typeof createBotLoader>;
