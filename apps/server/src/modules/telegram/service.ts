import { randomBytes } from 'node:crypto';
import { Api, GrammyError } from 'grammy';
import {
  TELEGRAM_BIND_LINK_MINUTES,
  type TelegramBindLink,
  type TelegramBinding,
} from '@skyway/shared/schemas/telegram';
import type { TelegramBotSettings } from '@skyway/shared/schemas/admin/telegram';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../http/errors.ts';
import { hashToken } from '../../lib/token-hash.ts';
import { recordAudit, type StaffActor } from '../audit/repository.ts';
import { requireSecretsKey } from '../gateways/secrets.ts';
import type { BotLoader } from './bot.ts';
import { sealBotToken } from './bot.ts';
import {
  type BindOwner,
  findBot,
  findLinkOfUser,
  findStaffLink,
  storeBindToken,
  storeBot,
} from './repository.ts';

/** Asks Telegram who the token's bot is (getMe): its @username, or the back office's refusal. */
async function botUsername(token: string, apiRoot: string): Promise<string> {
  try {
    const me = await new Api(token, { apiRoot }).getMe();
    return me.username;
  } catch (error) {
    if (error instanceof GrammyError) throw new AppError(400, 'telegram_token_invalid');
    throw new AppError(503, 'telegram_unavailable');
  }
}

/** The back office saves the bot's token: checked with Telegram, sealed, never shown again nor audited. */
export async function saveBotToken(
  db: Database,
  deps: { secretsKey: Buffer | undefined; apiRoot: string },
  actor: StaffActor,
  token: string,
  now: Date,
): Promise<void> {
  const key = requireSecretsKey(deps.secretsKey);
  const username = await botUsername(token, deps.apiRoot);
  await db.transaction(async (tx) => {
    const before = await findBot(tx);
    await storeBot(tx, sealBotToken(key, token), username, now);
    await recordAudit(
      tx,
      actor,
      {
        action: 'telegram.bot_token_set',
        targetType: 'telegram_bot',
        targetId: '1',
        before: before ? { username: before.username } : null,
        after: { username },
      },
      now,
    );
  });
}

export async function presentBotSettings(
  db: Database,
  publicUrl: string | undefined,
): Promise<TelegramBotSettings> {
  const row = await findBot(db);
  return {
    configured: Boolean(row),
    username: row?.username ?? null,
    mode: publicUrl ? 'webhook' : 'polling',
  };
}

/** The back office's test: the saved token still opens the bot at Telegram. */
export async function testBot(loadBot: BotLoader): Promise<{ ok: boolean; username: string | null }> {
  const loaded = await loadBot();
  if (!loaded) throw new AppError(409, 'telegram_unavailable');
  try {
    const me = await loaded.bot.api.getMe();
    return { ok: true, username: me.username };
  } catch {
    return { ok: false, username: loaded.username };
  }
}

export async function bindingOf(db: Database, userId: string): Promise<TelegramBinding> {
  const [bot, link] = await Promise.all([findBot(db), findLinkOfUser(db, userId)]);
  return {
    available: Boolean(bot),
    bound: Boolean(link),
    mail_off: link?.mailOff ?? false,
    bot_username: bot?.username ?? null,
  };
}

/** A member's binding of their alerts, as "My alerts" shows it. */
export async function staffBindingOf(db: Database, staffId: string) {
  const [bot, link] = await Promise.all([findBot(db), findStaffLink(db, staffId)]);
  return {
    available: Boolean(bot),
    bound: Boolean(link),
    bound_at: link?.createdAt.toISOString() ?? null,
    bot_username: bot?.username ?? null,
  };
}

/**
 * A one-time deep link `https://t.me/<bot>?start=<token>` for a customer's account or a member of
 * staff: 32 random bytes, stored as their hash, valid 10 minutes; a new link replaces the unused one.
 */
export async function createBindLink(db: Database, owner: BindOwner, now: Date): Promise<TelegramBindLink> {
  const bot = await findBot(db);
  if (!bot) throw new AppError(409, 'telegram_unavailable');
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + TELEGRAM_BIND_LINK_MINUTES * 60_000);
  await storeBindToken(db, hashToken(token), owner, expiresAt);
  return { url: `https://t.me/${bot.username}?start=${token}`, expires_at: expiresAt.toISOString() };
}
