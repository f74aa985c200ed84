import type { Bot, Context } from 'grammy';
import type { Database } from '../../db/client.ts';
import type { StaffRow } from '../../db/schema/index.ts';
import { customerTime } from '../../lib/customer-time.ts';
import { hashToken } from '../../lib/token-hash.ts';
import { entitlementOf } from '../access/rules.ts';
import { usableSlots } from '../access/slots.ts';
import { recordAudit } from '../audit/repository.ts';
import { findStaff } from '../staff/repository.ts';
import {
  bindChat,
  bindStaffChat,
  countDevicesInUse,
  findUserOfChat,
  unbindChat,
  useBindToken,
} from './repository.ts';
import { botTexts, botTextsForTelegramLanguage } from './texts.ts';

/** Bind tokens are 32 random bytes in base64url: anything else is refused before any lookup. */
const BIND_TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** The audit row of a member's chat bound or unbound from the bot: the member is its author. */
const auditMemberChat = (db: Database, member: StaffRow, bound: boolean, at: Date) =>
  recordAudit(
    db,
    { staffId: member.id, email: member.email, role: member.role, ip: null },
    {
      action: bound ? 'alerts.telegram_bind' : 'alerts.telegram_unbind',
      targetType: 'staff',
      targetId: member.id,
      before: { bound: !bound },
      after: { bound },
    },
    at,
  );

/**
 * What the bot answers (the same whether updates come by webhook or by polling). Everything is
 * looked up by the chat the update came from: a chat reaches only the account bound to it.
 */
export function installUpdateHandlers(bot: Bot, db: Database, now: () => Date = () => new Date()): void {
  const chatOf = (ctx: Context) => (ctx.chat?.type === 'private' ? ctx.chat.id : undefined);
  // The bound account's language; for a chat with none, the language of the person writing.
  const textsFor = async (ctx: Context, chatId: number) => {
    const user = await findUserOfChat(db, chatId);
    return user ? botTexts(user.language) : botTextsForTelegramLanguage(ctx.from?.language_code);
  };
  // Only private chats: a group never binds nor reads an account.
  bot.use(async (ctx, next) => {
    if (chatOf(ctx) !== undefined) await next();
  });

  bot.command('start', async (ctx) => {
    const chatId = ctx.chat.id;
    const token = ctx.match.trim();
    if (!token) return void (await ctx.reply((await textsFor(ctx, chatId)).help));
    const owner = BIND_TOKEN.test(token) ? await useBindToken(db, hashToken(token), now()) : undefined;
    const refused = () => ctx.reply(botTextsForTelegramLanguage(ctx.from?.language_code).bindRefused);
    if (!owner) return void (await refused());
    if ('userId' in owner) {
      await bindChat(db, owner.userId, chatId, now());
      return void (await ctx.reply((await textsFor(ctx, chatId)).bound));
    }
    const member = await findStaff(db, owner.staffId);
    if (!member || member.disabledAt) return void (await refused());
    await db.transaction(async (tx) => {
      await bindStaffChat(tx, member.id, chatId, now());
      await auditMemberChat(tx, member, true, now());
    });
    await ctx.reply(botTexts(member.language).staffBound);
  });

  bot.command('status', async (ctx) => {
    const chatId = ctx.chat.id;
    const user = await findUserOfChat(db, chatId);
    if (!user) return void (await ctx.reply(botTextsForTelegramLanguage(ctx.from?.language_code).notBound));
    const texts = botTexts(user.language);
    const at = now();
    const connections = usableSlots(user, at);
    if (connections === 0) return void (await ctx.reply(texts.noAccess));
    const end = new Date(entitlementOf(user, at).expireAt * 1000);
    const devices = await countDevicesInUse(db, user.id);
    await ctx.reply(texts.status({ end: customerTime(end), connections, devices }));
  });

  bot.command('unbind', async (ctx) => {
    const chatId = ctx.chat.id;
    const texts = await textsFor(ctx, chatId);
    const unbound = await unbindChat(db, chatId);
    const member = unbound.staffId ? await findStaff(db, unbound.staffId) : undefined;
    if (member) await auditMemberChat(db, member, false, now());
    await ctx.reply(unbound.customer || member ? texts.unbound : texts.notBound);
  });

  bot.on('message', async (ctx) => {
    await ctx.reply((await textsFor(ctx, ctx.chat.id)).help);
  });
}
