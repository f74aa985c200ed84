import { eq } from 'drizzle-orm';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { mailOutbox, users } from '../../db/schema/index.ts';
import { startSmtpCatcher } from '../../testing/smtp-catcher.ts';
import { signedInUser, startTestApp, TEST_SUBSCRIPTION_KEY, useTestApp } from '../../testing/test-app.ts';
import { createMailer } from '../mail/mailer.ts';
import { accountOfUnsubscribeToken, unsubscribeToken, unsubscribeUrl } from './tokens.ts';

const KEY = TEST_SUBSCRIPTION_KEY;

describe('unsubscribe tokens', () => {
  it('name their own account only, and cannot be made or altered without the key', () => {
    const alice = crypto.randomUUID();
    const bob = crypto.randomUUID();
    const token = unsubscribeToken(KEY, alice);
    expect(accountOfUnsubscribeToken(KEY, token)).toBe(alice);
    // Bob's id with Alice's MAC, a token made with another key, and junk: nobody's.
    const [, mac] = token.split('.');
    const [bobId] = unsubscribeToken(KEY, bob).split('.');
    expect(accountOfUnsubscribeToken(KEY, `${bobId}.${mac}`)).toBeUndefined();
    expect(
      accountOfUnsubscribeToken(KEY, unsubscribeToken('another-key-0123456789abcdef', alice)),
    ).toBeUndefined();
    expect(accountOfUnsubscribeToken(KEY, 'not-a-token')).toBeUndefined();
    expect(accountOfUnsubscribeToken(KEY, `${token}x`)).toBeUndefined();
  });
});

describe('the unsubscribe link', () => {
  const t = useTestApp();

  const path = (userId: string) => new URL(unsubscribeUrl('https://x.test', KEY, userId)).pathname;
  const account = async (id: string) => {
    const [row] = await t.database.db.select().from(users).where(eq(users.id, id));
    return row;
  };

  /** A reminder and a code mail waiting in the outbox for the account. */
  async function waitingMail(userId: string, email: string) {
    const row = {
      to: email,
      language: 'en',
      subject: 's',
      text: 't',
      html: 'h',
      userId,
      status: 'pending' as const,
      nextAttemptAt: new Date(Date.now() + 3_600_000),
    };
    await t.database.db.insert(mailOutbox).values([
      { ...row, template: 'expiry_reminder', priority: 3, unsubscribeUrl: `https://x.test${path(userId)}` },
      { ...row, template: 'code_forget', priority: 0 },
    ]);
  }
  const outboxOf = (userId: string) =>
    t.database.db
      .select({ template: mailOutbox.template, status: mailOutbox.status })
      .from(mailOutbox)
      .where(eq(mailOutbox.userId, userId))
      .orderBy(mailOutbox.template);

  it('asks first, in the account’s language, without signing in', async () => {
    const { user } = await signedInUser(t.database);
    await t.database.db.update(users).set({ language: 'zh' }).where(eq(users.id, user.id));
    const page = await t.app.inject({ method: 'GET', url: path(user.id) });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('<html lang="zh-CN">');
    expect(page.body).toContain(`<form method="post" action="${path(user.id)}">`);
    expect(page.body).toContain('退订');
    // Looking is not unsubscribing.
    expect((await account(user.id))?.mailOptOutAt).toBeNull();
  });

  it('unsubscribes its own account from reminders and notices, not from account mail', async () => {
    const { user } = await signedInUser(t.database);
    const { user: other } = await signedInUser(t.database);
    await waitingMail(user.id, user.email);
    await waitingMail(other.id, other.email);
    const done = await t.app.inject({ method: 'POST', url: path(user.id) });
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain('You are unsubscribed');
    expect((await account(user.id))?.mailOptOutAt).toBeInstanceOf(Date);
    expect(await outboxOf(user.id)).toEqual([
      { template: 'code_forget', status: 'pending' },
      { template: 'expiry_reminder', status: 'cancelled' },
    ]);
    // Nobody else.
    expect((await account(other.id))?.mailOptOutAt).toBeNull();
    expect((await outboxOf(other.id)).map((mail) => mail.status)).toEqual(['pending', 'pending']);
  });

  it('takes a mail client’s one-click POST (RFC 8058), again and again', async () => {
    const { user } = await signedInUser(t.database);
    const oneClick = () =>
      t.app.inject({
        method: 'POST',
        url: path(user.id),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'List-Unsubscribe=One-Click',
      });
    expect((await oneClick()).statusCode).toBe(200);
    const first = (await account(user.id))?.mailOptOutAt;
    expect(first).toBeInstanceOf(Date);
    expect((await oneClick()).statusCode).toBe(200);
    expect((await account(user.id))?.mailOptOutAt).toEqual(first);
  });

  it('says a link is not valid, and changes nothing', async () => {
    const { user } = await signedInUser(t.database);
    const [id] = path(user.id).split('/').at(-1)?.split('.') ?? [];
    for (const url of ['/unsubscribe/nonsense', `/unsubscribe/${id}.${'A'.repeat(22)}`]) {
      const reply = await t.app.inject({ method: 'POST', url, headers: { 'accept-language': 'zh-TW' } });
      expect(reply.statusCode).toBe(404);
      expect(reply.body).toContain('此取消訂閱連結無效');
    }
    expect((await account(user.id))?.mailOptOutAt).toBeNull();
  });
});

describe('List-Unsubscribe headers', () => {
  it('go with reminders and notices over SMTP, not with account mail', async () => {
    const smtp = await startSmtpCatcher();
    const t = await startTestApp();
    try {
      const mailer = createMailer({
        db: t.database.db,
        smtpUrl: smtp.url,
        from: 'a@b.test',
        siteName: 'Skyway',
        supportEmail: 's@b.test',
        log: Fastify({ logger: false }).log,
      });
      const link = unsubscribeUrl('https://vpn.example.com', KEY, crypto.randomUUID());
      const params = {
        expire_time: 'x',
        plan: 'Monthly',
        connections: 1,
        buy_link: 'b',
        unsubscribe_link: link,
      };
      await mailer.send({
        to: 'r@example.com',
        template: 'expiry_reminder',
        language: 'en',
        params,
        unsubscribeUrl: link,
      });
      await mailer.send({ to: 'c@example.com', template: 'password_changed', language: 'en' });
      await mailer.idle();
      await mailer.close();
      const reminder = smtp.messages.find((mail) => mail.to === 'r@example.com');
      expect(reminder?.headers['list-unsubscribe']).toBe(`<${link}>`);
      expect(reminder?.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
      const account = smtp.messages.find((mail) => mail.to === 'c@example.com');
      expect(account?.headers['list-unsubscribe']).toBeUndefined();
    } finally {
      await t.close();
      await smtp.close();
    }
  });
});
