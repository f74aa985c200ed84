import type { AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  auditLog,
  mailOutbox,
  telegramBindTokens,
  telegramBot,
  telegramLinks,
  telegramOutbox,
  telegramStaffLinks,
  users,
} from '../../db/schema/index.ts';
import { payingCustomer } from '../../testing/customers.ts';
import { TEST_SECRETS_KEY } from '../../testing/gateways.ts';
import { fulfilDeps } from '../../testing/payments.ts';
import { waitUntil } from '../../testing/poll.ts';
import { type SignedInStaff, signedInStaff } from '../../testing/staff.ts';
import { startTelegramBotApi, type TelegramBotApi } from '../../testing/telegram-bot-api.ts';
import {
  newClientAddress,
  signedInUser,
  startTestApp,
  useTestApp,
  webCaller,
} from '../../testing/test-app.ts';
import { customerTime } from '../../lib/customer-time.ts';
import { hashToken } from '../../lib/token-hash.ts';
import { fulfilPayment } from '../orders/fulfilment.ts';
import { createBotLoader, webhookSecret } from './bot.ts';
import { startSmtpCatcher } from '../../testing/smtp-catcher.ts';
import { testMailer } from '../../testing/test-mailer.ts';
import { queueCustomerMessages } from './customer-messages.ts';
import { createPacer } from './pacer.ts';
import { queueTelegramMessages } from './repository.ts';
import { sendDueTelegram } from './sender.ts';
import { createTelegramWorker, type TelegramWorker } from './worker.ts';

const secretsKey = Buffer.from(TEST_SECRETS_KEY, 'hex');
let api: TelegramBotApi;
beforeAll(async () => {
  api = await startTelegramBotApi();
});
afterAll(() => api.close());

const suite = useTestApp(() => ({ SECRETS_KEY: TEST_SECRETS_KEY, TELEGRAM_API_ROOT: api.url }));
const web = webCaller(() => suite.app, newClientAddress);
let owner: SignedInStaff;
const workers: TelegramWorker[] = [];
beforeAll(async () => {
  owner = await signedInStaff(suite.app, suite.database, 'owner');
  const saved = await owner.call('POST', '/telegram/bot', { token: api.token });
  expect(saved.json().data).toEqual({ configured: true, username: api.username, mode: 'polling' });
});
afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.close()));
});

/** The bot's worker as a server runs it, on this suite's database, polling (no public address). */
function startWorker(publicUrl?: string): TelegramWorker {
  const worker = createTelegramWorker({
    db: suite.database.db,
    loadBot: createBotLoader(suite.database.db, secretsKey, api.url),
    publicUrl,
    perSecond: 30,
    log: suite.app.log,
    tickMs: 50,
  });
  worker.start();
  workers.push(worker);
  return worker;
}

let nextChat = 5000;
const newChat = () => ++nextChat;

/** What the bot said to a chat (after `from` earlier messages), waiting for `count` of them. */
async function repliesTo(chatId: number, count = 1): Promise<string[]> {
  const { value } = await waitUntil(
    `${count} replies to chat ${chatId}`,
    () => {
      const texts = api.sent.filter((message) => message.chatId === chatId).map((message) => message.text);
      return texts.length >= count ? texts : undefined;
    },
    { timeoutMs: 10_000, intervalMs: 20 },
  );
  return value;
}

/** The worker's sending of the due queue, once, through the suite's bot. */
async function sendQueue() {
  const loaded = await createBotLoader(suite.database.db, secretsKey, api.url)();
  if (!loaded) throw new Error('the bot is set up in beforeAll');
  return sendDueTelegram({
    db: suite.database.db,
    api: loaded.bot.api,
    pacer: createPacer(30),
    log: suite.app.log,
    mayGoOn: () => true,
  });
}

/** A link sent from a new chat is refused, and that chat is bound to nothing. */
async function refusedFromNewChat(start: string): Promise<number> {
  const chat = newChat();
  await api.write(chat, `/start ${start}`);
  expect((await repliesTo(chat))[0]).toContain('This link is not valid');
  return chat;
}

/** The unused bind tokens of an account or a member expire. */
const expireBindTokens = (
  column: typeof telegramBindTokens.userId | typeof telegramBindTokens.staffId,
  id: string,
) =>
  suite.database.db
    .update(telegramBindTokens)
    .set({ expiresAt: sql`now() - interval '1 second'` })
    .where(eq(column, id));

async function bindLink(token: string): Promise<string> {
  const reply = await web('/web/telegram/link', {}, token);
  expect(reply.statusCode).toBe(200);
  const url = new URL(reply.json().data.url as string);
  expect(`${url.origin}${url.pathname}`).toBe(`https://t.me/${api.username}`);
  return url.searchParams.get('start') ?? '';
}

describe('bot settings', () => {
  it('refuses a token Telegram does not take, and keeps the saved one sealed and out of every reply and audit row', async () => {
    const wrong = await owner.call('POST', '/telegram/bot', {
      token: '999999:AAHnot-the-bot-token-at-all-0123456789',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().data.reason).toBe('telegram_token_invalid');
    const [row] = await suite.database.db.select().from(telegramBot);
    expect(row?.sealedToken).not.toContain(api.token.split(':')[1]);
    const read = await owner.call('GET', '/telegram/bot');
    expect(read.body).not.toContain(api.token);
    expect(read.json().data.username).toBe(api.username);
    const audits = await suite.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'telegram.bot_token_set'));
    expect(audits).toHaveLength(1);
    expect(JSON.stringify(audits)).not.toContain(api.token.split(':')[1]);
    const tested = await owner.call('POST', '/telegram/bot/test', {});
    expect(tested.json().data).toEqual({ ok: true, username: api.username });
  });
});

describe('binding and commands (long polling)', () => {
  it('binds through the deep link once; a used or expired link is refused', async () => {
    startWorker();
    const { user, token } = await payingCustomer(suite.database, 2);
    expect((await web('/web/telegram/binding', {}, token)).json().data).toEqual({
      available: true,
      bound: false,
      mail_off: false,
      bot_username: api.username,
    });
    const start = await bindLink(token);
    const [stored] = await suite.database.db
      .select()
      .from(telegramBindTokens)
      .where(eq(telegramBindTokens.userId, user.id));
    expect(stored?.tokenHash).toBe(hashToken(start));

    const chat = newChat();
    await api.write(chat, `/start ${start}`);
    expect((await repliesTo(chat))[0]).toContain('Your account is bound');
    expect((await web('/web/telegram/binding', {}, token)).json().data.bound).toBe(true);

    // The same link again, from another chat: refused, and that chat reaches no account.
    const other = await refusedFromNewChat(start);
    await api.write(other, '/status');
    expect((await repliesTo(other, 2))[1]).toContain('No account is bound');

    // A link older than 10 minutes.
    const late = await bindLink(token);
    await expireBindTokens(telegramBindTokens.userId, user.id);
    await refusedFromNewChat(late);
    const links = await suite.database.db
      .select()
      .from(telegramLinks)
      .where(eq(telegramLinks.userId, user.id));
    expect(links.map((link) => link.chatId)).toEqual([chat]);
  });

  it("answers /status for the chat's own account only, /unbind, and anything else with help in the account's language", async () => {
    startWorker();
    const first = await payingCustomer(suite.database, 3);
    const second = await signedInUser(suite.database);
    await suite.database.db.execute(sql`update users set language = 'zh' where id = ${second.user.id}`);
    const firstChat = newChat();
    const secondChat = newChat();
    await api.write(firstChat, `/start ${await bindLink(first.token)}`);
    await api.write(secondChat, `/start ${await bindLink(second.token)}`);
    await repliesTo(firstChat);
    expect((await repliesTo(secondChat))[0]).toContain('账户已绑定');

    await api.write(firstChat, '/status');
    const status = (await repliesTo(firstChat, 2))[1];
    expect(status).toMatch(
      /^Access until: \d{4}-\d\d-\d\d \d\d:\d\d:\d\d \(UTC\+8\)\nConnections: 3\nDevices in use: 0$/,
    );
    // The second account has no access: its chat hears that, never the first account's figures.
    await api.write(secondChat, '/status');
    expect((await repliesTo(secondChat, 2))[1]).toBe('您的账户目前没有可用的服务。');

    await api.write(secondChat, 'hello');
    expect((await repliesTo(secondChat, 3))[2]).toContain('/status');
    expect((await repliesTo(secondChat, 3))[2]).toContain('本机器人');

    await api.write(firstChat, '/unbind');
    expect((await repliesTo(firstChat, 3))[2]).toContain('Unbound');
    expect((await web('/web/telegram/binding', {}, first.token)).json().data.bound).toBe(false);
    await api.write(firstChat, '/status');
    expect((await repliesTo(firstChat, 4))[3]).toContain('No account is bound');

    // And from the console.
    expect((await web('/web/telegram/unbind', {}, second.token)).json().data.bound).toBe(false);
    await api.write(secondChat, '/status');
    expect((await repliesTo(secondChat, 4))[3]).toContain('No account is bound');
  });
});

describe('webhook', () => {
  it('refuses calls without or with a wrong secret token and processes nothing; the right one is handled', async () => {
    const { token } = await signedInUser(suite.database);
    const start = await bindLink(token);
    const chat = newChat();
    const update = {
      update_id: 900_001,
      message: {
        message_id: 1,
        date: Math.floor(Date.now() / 1000),
        chat: { id: chat, type: 'private', first_name: 'T' },
        from: { id: chat, is_bot: false, first_name: 'T' },
        text: `/start ${start}`,
        entities: [{ type: 'bot_command', offset: 0, length: 6 }],
      },
    };
    const post = (headers: Record<string, string>) =>
      suite.app.inject({ method: 'POST', url: '/telegram/webhook', payload: update, headers });
    expect((await post({})).statusCode).toBe(401);
    expect((await post({ 'x-telegram-bot-api-secret-token': 'not-the-secret' })).statusCode).toBe(403);
    expect((await web('/web/telegram/binding', {}, token)).json().data.bound).toBe(false);
    expect(api.sent.filter((message) => message.chatId === chat)).toEqual([]);

    const right = await post({ 'x-telegram-bot-api-secret-token': webhookSecret(secretsKey, api.token) });
    expect(right.statusCode).toBe(200);
    expect((await web('/web/telegram/binding', {}, token)).json().data.bound).toBe(true);
  });

  it('sets the webhook with its secret when the site has a public address, and never polls then', async () => {
    const served = await startTestApp(
      { SECRETS_KEY: TEST_SECRETS_KEY, TELEGRAM_API_ROOT: api.url },
      undefined,
      suite.database,
    );
    // The suite's database: close the extra app only (its database is the suite's).
    try {
      await served.app.listen({ port: 0, host: '127.0.0.1' });
      const publicUrl = `http://127.0.0.1:${(served.app.server.address() as AddressInfo).port}`;
      const polls = api.pollCount();
      startWorker(publicUrl);
      await waitUntil('the webhook set', () => api.webhook ?? undefined, { timeoutMs: 5_000 });
      expect(api.webhook).toEqual({
        url: `${publicUrl}/telegram/webhook`,
        secretToken: webhookSecret(secretsKey, api.token),
      });
      const chat = newChat();
      await api.write(chat, 'hi');
      expect((await repliesTo(chat))[0]).toContain('/status');
      expect(api.pollCount()).toBe(polls);
      await Promise.all(workers.splice(0).map((worker) => worker.close()));
    } finally {
      await served.app.close();
    }
    // Back to polling: the next worker without a public address deletes the webhook.
    startWorker();
    await waitUntil('the webhook deleted', () => (api.webhook ? undefined : true), { timeoutMs: 5_000 });
  });
});

describe('sending within the limits', () => {
  it('sends a queue within 30 a second overall and 1 a second per chat, honours retry_after, and unbinds a chat that blocked the bot', async () => {
    const db = suite.database.db;
    const { user } = await signedInUser(suite.database);
    const blocked = newChat();
    await db.insert(telegramLinks).values({ userId: user.id, chatId: blocked });
    api.block(blocked);
    const chats = Array.from({ length: 40 }, newChat);
    const before = api.sent.length;
    await queueTelegramMessages(
      db,
      [
        ...chats.flatMap((chatId) =>
          [1, 2].map((n) => ({ chatId, kind: 'expiry_reminder', text: `reminder ${n}`, priority: 3 })),
        ),
        { chatId: blocked, userId: user.id, kind: 'expiry_reminder', text: 'to a blocked chat', priority: 3 },
      ],
      new Date(),
    );
    api.flood(1);
    const started = performance.now();
    const result = await sendQueue();
    const seconds = (performance.now() - started) / 1000;
    expect(result).toMatchObject({ sent: 80, unbound: 1, failed: 0 });
    expect(result.retried).toBe(1);
    const ours = api.sent.slice(before);
    expect(ours).toHaveLength(80);
    expect(api.busiestSecond(before)).toBeLessThanOrEqual(30);
    expect(api.shortestChatGapMs(before)).toBeGreaterThanOrEqual(1000);
    // 80 messages at 30 a second, and the second's pause that retry_after asked for.
    expect(seconds).toBeGreaterThan(80 / 30);
    expect(seconds).toBeLessThan(80 / 30 + 3);
    expect(await db.select().from(telegramLinks).where(eq(telegramLinks.chatId, blocked))).toEqual([]);
    const [cancelled] = await db.select().from(telegramOutbox).where(eq(telegramOutbox.chatId, blocked));
    expect(cancelled?.status).toBe('cancelled');
  });
});

describe('customer messages', () => {
  it("go to a bound account's chat in its language and by mail unless it turned mail off; a code mail is not held up by a broadcast", async () => {
    const db = suite.database.db;
    const smtp = await startSmtpCatcher();
    const mailer = testMailer(db, { smtpUrl: smtp.url });
    try {
      const bound = await signedInUser(suite.database);
      const telegramOnly = await signedInUser(suite.database);
      const unbound = await signedInUser(suite.database);
      await db.execute(sql`update users set language = 'tw' where id = ${bound.user.id}`);
      const [boundChat, onlyChat] = [newChat(), newChat()];
      await db.insert(telegramLinks).values([
        { userId: bound.user.id, chatId: boundChat },
        { userId: telegramOnly.user.id, chatId: onlyChat },
      ]);
      const mailOff = await web('/web/telegram/mail', { mail_off: true }, telegramOnly.token);
      expect(mailOff.json().data).toMatchObject({ bound: true, mail_off: true });
      const notBound = await web('/web/telegram/mail', { mail_off: true }, unbound.token);
      expect(notBound.statusCode).toBe(409);
      expect(notBound.json().data.reason).toBe('telegram_not_bound');

      const notice = (user: typeof bound.user, language: 'en' | 'tw') => ({
        to: user.email,
        template: 'notice' as const,
        language,
        params: { title: 'Maintenance', body: 'Tonight 02:00', unsubscribe_link: 'https://example.com/u' },
        userId: user.id,
      });
      await queueCustomerMessages(
        db,
        mailer,
        'notice',
        [notice(bound.user, 'tw'), notice(telegramOnly.user, 'en'), notice(unbound.user, 'en')],
        new Date(),
      );
      const mails = await db.select().from(mailOutbox).where(eq(mailOutbox.template, 'notice'));
      expect(mails.map((mail) => mail.to).sort()).toEqual([bound.user.email, unbound.user.email].sort());
      const queued = await db.select().from(telegramOutbox).where(eq(telegramOutbox.kind, 'notice'));
      expect(queued.map((row) => row.chatId).sort()).toEqual([boundChat, onlyChat].sort());
      expect(queued.find((row) => row.chatId === boundChat)?.text).toContain('Maintenance');

      // A broadcast of reminders waits in Telegram's queue while a code mail goes out at once.
      const loaded = await createBotLoader(db, secretsKey, api.url)();
      if (!loaded) throw new Error('the bot is set up in beforeAll');
      await queueTelegramMessages(
        db,
        Array.from({ length: 300 }, () => ({
          chatId: newChat(),
          kind: 'expiry_reminder',
          text: 'renew',
          priority: 3,
        })),
        new Date(),
      );
      let sending = true;
      const broadcast = sendDueTelegram({
        db,
        api: loaded.bot.api,
        pacer: createPacer(30),
        log: suite.app.log,
        mayGoOn: () => sending,
      });
      const asked = performance.now();
      await mailer.send({
        to: unbound.user.email,
        template: 'code_register',
        language: 'en',
        params: { code: '123456', minutes: 10 },
      });
      await smtp.waitFor((mail) => mail.to === unbound.user.email && mail.text.includes('123456'), 5_000);
      expect(performance.now() - asked).toBeLessThan(2_000);
      const [{ pending } = { pending: 0 }] = await db
        .select({ pending: sql<number>`count(*)::int` })
        .from(telegramOutbox)
        .where(eq(telegramOutbox.status, 'pending'));
      expect(pending).toBeGreaterThan(200);
      sending = false;
      await broadcast;
      // The notices went before the reminders queued with them (priority 2 before 3).
      const sentNotice = api.sent.findIndex((message) => message.chatId === boundChat);
      expect(api.sent[sentNotice]?.text).toContain('Maintenance');
    } finally {
      // What the broadcast left waiting is not for the tests after this one to send.
      await db
        .update(telegramOutbox)
        .set({ status: 'cancelled' })
        .where(eq(telegramOutbox.status, 'pending'));
      await mailer.close();
      await smtp.close();
    }
  });
  it('confirm a payment once, with the credit: in Telegram in the account’s language, and by mail unless it is off', async () => {
    const db = suite.database.db;
    const bound = await signedInUser(suite.database);
    const telegramOnly = await signedInUser(suite.database);
    const unbound = await signedInUser(suite.database);
    const buyers = [bound, telegramOnly, unbound];
    await db.execute(sql`update users set language = 'zh' where id = ${bound.user.id}`);
    const [boundChat, onlyChat] = [newChat(), newChat()];
    await db.insert(telegramLinks).values([
      { userId: bound.user.id, chatId: boundChat },
      { userId: telegramOnly.user.id, chatId: onlyChat, mailOff: true },
    ]);
    const paid = new Map<string, string>();
    for (const buyer of buyers) {
      const order = (
        await web('/web/order/create', { period: 'month', connections: 2, pay_method: 'alipay' }, buyer.token)
      ).json().data as { order_id: string; checkout_url: string; amount: number };
      // Paid on the sandbox's checkout page, as the buyer's browser posts it; then delivered again.
      const checkout = new URL(order.checkout_url, 'http://site').pathname;
      const pay = await suite.app.inject({
        method: 'POST',
        url: `${checkout}/pay`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: '',
      });
      expect(pay.statusCode).toBe(303);
      const again = {
        provider: 'sandbox',
        orderId: order.order_id,
        paymentId: checkout.split('/').at(-1) ?? '',
        amount: order.amount,
        currency: 'CNY',
      };
      expect(await fulfilPayment(fulfilDeps(suite), again, new Date())).toBe('duplicate');
      paid.set(buyer.user.id, order.order_id);
    }
    const [boundUser] = await db.select().from(users).where(eq(users.id, bound.user.id));
    const confirmations = await db
      .select()
      .from(telegramOutbox)
      .where(eq(telegramOutbox.kind, 'payment_confirmed'));
    expect(confirmations.map((row) => row.chatId).sort()).toEqual([boundChat, onlyChat].sort());
    const zh = confirmations.find((row) => row.chatId === boundChat);
    expect(zh?.priority).toBe(1);
    expect(zh?.text).toContain('支付成功');
    expect(zh?.text).toContain(paid.get(bound.user.id));
    expect(zh?.text).toContain(customerTime(boundUser?.expireAt ?? new Date(0)));
    const mails = await db.select().from(mailOutbox).where(eq(mailOutbox.template, 'payment_confirmed'));
    expect(mails.map((mail) => mail.to).sort()).toEqual([bound.user.email, unbound.user.email].sort());

    // Money that gave no time (short of the price) confirms nothing.
    const short = (
      await web('/web/order/create', { period: 'month', connections: 1, pay_method: 'alipay' }, unbound.token)
    ).json().data as { order_id: string; amount: number };
    const outcome = await fulfilPayment(
      fulfilDeps(suite),
      {
        provider: 'sandbox',
        orderId: short.order_id,
        paymentId: `short-${short.order_id}`,
        amount: short.amount - 1,
        currency: 'CNY',
      },
      new Date(),
    );
    expect(outcome).toBe('amount_mismatch');
    const after = await db.select().from(mailOutbox).where(eq(mailOutbox.template, 'payment_confirmed'));
    expect(after).toHaveLength(2);
  });
});

describe('staff binding', () => {
  async function staffLink(member: SignedInStaff): Promise<string> {
    const reply = await member.call('POST', '/me/alerts/telegram/link', {});
    expect(reply.statusCode).toBe(200);
    const url = new URL(reply.json().data.url as string);
    expect(`${url.origin}${url.pathname}`).toBe(`https://t.me/${api.username}`);
    return url.searchParams.get('start') ?? '';
  }
  const boundOf = async (member: SignedInStaff) =>
    (await member.call('GET', '/me/alerts')).json().data.telegram.bound as boolean;

  it("binds a member's chat once through their own link, in their language; a used, replaced or expired link is refused", async () => {
    startWorker();
    const db = suite.database.db;
    const member = await signedInStaff(suite.app, suite.database, 'support');
    await db.execute(sql`update staff set language = 'zh' where id = ${member.id}`);
    expect((await member.call('GET', '/me/alerts')).json().data.telegram).toEqual({
      available: true,
      bound: false,
      bound_at: null,
      bot_username: api.username,
    });
    // A new link replaces the unused one.
    const replaced = await staffLink(member);
    const start = await staffLink(member);
    const [stored] = await db
      .select()
      .from(telegramBindTokens)
      .where(eq(telegramBindTokens.staffId, member.id));
    expect(stored).toMatchObject({ tokenHash: hashToken(start), userId: null });
    await refusedFromNewChat(replaced);

    const chat = newChat();
    await api.write(chat, `/start ${start}`);
    expect((await repliesTo(chat))[0]).toContain('管理后台的告警');
    const state = (await member.call('GET', '/me/alerts')).json().data.telegram;
    expect(state.bound).toBe(true);
    expect(state.bound_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    // It binds the member's alerts, not a customer's account.
    expect(await db.select().from(telegramLinks).where(eq(telegramLinks.chatId, chat))).toEqual([]);

    await refusedFromNewChat(start);
    const late = await staffLink(member);
    await expireBindTokens(telegramBindTokens.staffId, member.id);
    await refusedFromNewChat(late);
    const links = await db.select().from(telegramStaffLinks).where(eq(telegramStaffLinks.staffId, member.id));
    expect(links.map((link) => link.chatId)).toEqual([chat]);

    const audits = await db.select().from(auditLog).where(eq(auditLog.targetId, member.id));
    expect(audits.map((row) => row.action)).toContain('alerts.telegram_bind');
    for (const token of [replaced, start, late]) expect(JSON.stringify(audits)).not.toContain(token);

    // The same person binds their customer account from the chat, and unbinds it from the console:
    // the member's alerts stay bound.
    const customer = await signedInUser(suite.database);
    await api.write(chat, `/start ${await bindLink(customer.token)}`);
    expect((await repliesTo(chat, 2))[1]).toContain('Your account is bound');
    expect((await web('/web/telegram/unbind', {}, customer.token)).json().data.bound).toBe(false);
    expect(await boundOf(member)).toBe(true);

    // /unbind in the chat unbinds the member's alerts too, audited.
    await api.write(chat, '/unbind');
    expect((await repliesTo(chat, 3))[2]).toContain('Unbound');
    expect(await boundOf(member)).toBe(false);
    const unbound = await db.select().from(auditLog).where(eq(auditLog.targetId, member.id));
    expect(unbound.map((row) => row.action)).toContain('alerts.telegram_unbind');
  });

  it("unbinds a member's chat quietly when the bot is blocked there", async () => {
    const db = suite.database.db;
    const member = await signedInStaff(suite.app, suite.database, 'admin');
    const chat = newChat();
    await db.insert(telegramStaffLinks).values({ staffId: member.id, chatId: chat });
    expect(await boundOf(member)).toBe(true);
    api.block(chat);
    await queueTelegramMessages(
      db,
      [{ chatId: chat, kind: 'staff_alert', text: 'an alert', priority: 1 }],
      new Date(),
    );
    expect(await sendQueue()).toMatchObject({ unbound: 1 });
    expect(await boundOf(member)).toBe(false);
  });
});
