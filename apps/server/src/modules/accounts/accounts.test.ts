import { randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { emailCodes, mailOutbox, users } from '../../db/schema/index.ts';
import { type CaughtMail, codeIn, type SmtpCatcher, startSmtpCatcher } from '../../testing/smtp-catcher.ts';
import { newClientAddress, useTestApp } from '../../testing/test-app.ts';
import { createUser } from '../users/repository.ts';
import { hashPassword } from '../../lib/passwords.ts';
import { testDatabaseKind } from '../../testing/test-database.ts';

// Fresh addresses and client addresses for every test and run: counters in a shared Redis outlive a run.
const run = randomBytes(4).toString('hex');
let seq = 0;
const newEmail = () => `user${++seq}.${run}@example.com`;
const PASSWORD = 'correct horse battery';

const stores = [
  { name: 'in process', env: {} as Record<string, string> },
  ...(process.env.TEST_REDIS_URL
    ? [{ name: 'in Redis', env: { REDIS_URL: process.env.TEST_REDIS_URL } }]
    : []),
];

describe.each(stores)('accounts, limits counted $name', ({ env }) => {
  let smtp: SmtpCatcher;
  let ip: string;

  beforeAll(async () => {
    smtp = await startSmtpCatcher();
  });
  afterAll(() => smtp.close());
  const t = useTestApp(() => ({ ...env, SMTP_URL: smtp.url }));
  beforeEach(() => {
    ip = newClientAddress();
  });

  const call = (url: string, payload: object = {}, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url, payload, headers, remoteAddress: ip });
  const mailTo = (email: string, subject?: RegExp): Promise<CaughtMail> =>
    smtp.waitFor((mail) => mail.to === email && (!subject || subject.test(mail.subject)));
  // The outbox row is written before a call replies (SMTP delivery follows later), so it is what
  // proves that a call sent no mail: none, or one withheld (written but never delivered).
  const outboxTo = (email: string, template?: string) =>
    t.database.db
      .select()
      .from(mailOutbox)
      .where(
        template
          ? and(eq(mailOutbox.to, email), eq(mailOutbox.template, template))
          : eq(mailOutbox.to, email),
      );

  /** The code request wrote its one row for this address withheld: no code in it, nothing delivered. */
  async function expectWithheld(email: string, template: string) {
    const rows = await outboxTo(email, template);
    expect(rows).toMatchObject([{ status: 'withheld', sentAt: null }]);
    expect(rows[0]?.text).not.toMatch(/\d{6}/);
    expect(smtp.messages.filter((mail) => mail.to === email)).toEqual([]);
  }

  async function askCode(email: string, scene: string, headers: Record<string, string> = {}) {
    const res = await call('/web/login/verify_email', { email, scene }, headers);
    expect(res.json()).toMatchObject({ code: 200 });
    return codeIn(await mailTo(email));
  }

  async function registered(email = newEmail(), password = PASSWORD) {
    const code = await askCode(email, 'register');
    const res = await call('/web/login/register', { email, password, email_code: code });
    expect(res.json().code).toBe(200);
    smtp.clear();
    return { email, password, token: res.json().data.token as string };
  }

  /** An account made without asking for a code, so no code limit has been touched for its address. */
  async function existing(email = newEmail()) {
    await createUser(t.database.db, { email, passwordHash: await hashPassword(PASSWORD) });
    return email;
  }

  const info = (token: string) => call('/web/user/info', {}, { authorization: token });

  describe('e-mail codes', () => {
    it('mails a 6-digit code in the caller language and registers with it', async () => {
      const email = newEmail();
      const res = await call('/web/login/verify_email', { email, scene: 'register', l: 'zh-cn' });
      // The reply tells where a code that does not arrive may be (the same reply whether or not one is sent).
      expect(res.json()).toEqual({
        code: 200,
        msg: '验证码已发送，请查收邮件。几分钟内未收到的话，请查看垃圾邮件箱，并确认邮箱地址无误',
        data: {},
      });
      const mail = await mailTo(email);
      expect(mail.text).toMatch(/验证码/);
      const reg = await call('/web/login/register', { email, password: PASSWORD, email_code: codeIn(mail) });
      expect(reg.json()).toMatchObject({
        code: 200,
        data: { account: email, expire_user: 0, subscribe_type: 1, connections: 1 },
      });
      expect((await info(reg.json().data.token)).json().data.account).toBe(email);
    });

    it('keeps only a hash of the code', async () => {
      const email = newEmail();
      const code = await askCode(email, 'register');
      const rows = await t.database.db.select().from(emailCodes).where(eq(emailCodes.email, email));
      expect(rows).toHaveLength(1);
      expect(JSON.stringify(rows)).not.toContain(code);
    });

    it('refuses a second code within 60 s and sends no mail', async () => {
      const email = newEmail();
      await askCode(email, 'register');
      const again = await call('/web/login/verify_email', { email, scene: 'register' });
      expect(again.statusCode).toBe(429);
      expect(again.json().data.reason).toBe('code_resend_too_soon');
      expect(again.json().data.retry_after).toBeGreaterThan(55);
      expect(await outboxTo(email)).toHaveLength(1);
    });

    it('uses a code once only', async () => {
      const email = newEmail();
      const code = await askCode(email, 'register');
      expect(
        (await call('/web/login/register', { email, password: PASSWORD, email_code: code })).json().code,
      ).toBe(200);
      const again = await call('/web/login/register', { email, password: PASSWORD, email_code: code });
      expect(again.json()).toMatchObject({
        code: 400,
        data: { reason: 'code_invalid', field: 'email_code' },
      });
    });

    it('binds a code to its scene: a register code does not reset a password', async () => {
      const { email } = await registered();
      const other = newEmail();
      const code = await askCode(other, 'register');
      const res = await call('/web/login/forget', {
        email: other,
        email_code: code,
        password: 'another fine pass',
      });
      expect(res.json().data.reason).toBe('code_invalid');
      const wrongAddress = await call('/web/login/forget', {
        email,
        email_code: code,
        password: 'another fine pass',
      });
      expect(wrongAddress.json().data.reason).toBe('code_invalid');
    });

    it('kills a code after 10 minutes', async () => {
      const email = newEmail();
      const code = await askCode(email, 'register');
      const [row] = await t.database.db.select().from(emailCodes).where(eq(emailCodes.email, email));
      if (!row) throw new Error('no code stored');
      expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBe(10 * 60 * 1000);
      // Ten minutes later, as far as the code is concerned.
      await t.database.db
        .update(emailCodes)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(emailCodes.email, email));
      const res = await call('/web/login/register', { email, password: PASSWORD, email_code: code });
      expect(res.json()).toMatchObject({ code: 400, data: { reason: 'code_expired' } });
    });

    it('voids a code after 5 wrong tries: the sixth guess fails even when right', async () => {
      const email = newEmail();
      const code = await askCode(email, 'register');
      const wrong = code === '000000' ? '111111' : '000000';
      for (let i = 0; i < 5; i++) {
        const res = await call('/web/login/register', { email, password: PASSWORD, email_code: wrong });
        expect(res.json().data.reason).toBe('code_invalid');
      }
      const right = await call('/web/login/register', { email, password: PASSWORD, email_code: code });
      expect(right.json()).toMatchObject({ code: 400, data: { reason: 'code_invalid' } });
    });

    it.runIf(testDatabaseKind === 'postgres')(
      'lets 20 parallel wrong guesses spend only 5 tries',
      async () => {
        const email = newEmail();
        const code = await askCode(email, 'register');
        const wrong = code === '000000' ? '111111' : '000000';
        await Promise.all(
          Array.from({ length: 20 }, () =>
            call('/web/login/register', { email, password: PASSWORD, email_code: wrong }),
          ),
        );
        const [row] = await t.database.db.select().from(emailCodes).where(eq(emailCodes.email, email));
        expect(row?.attempts).toBe(5);
        const right = await call('/web/login/register', { email, password: PASSWORD, email_code: code });
        expect(right.json().data.reason).toBe('code_invalid');
      },
    );
  });

  describe('no account enumeration', () => {
    it('answers a registration code request for a taken address the same, and mails a notice instead', async () => {
      const email = await existing();
      const fresh = newEmail();
      const taken = await call('/web/login/verify_email', { email, scene: 'register' });
      const free = await call('/web/login/verify_email', { email: fresh, scene: 'register' });
      expect(taken.statusCode).toBe(free.statusCode);
      expect(taken.json()).toEqual(free.json());
      const notice = await mailTo(email);
      expect(() => codeIn(notice)).toThrow();
      expect(notice.text).toMatch(/already/i);
    });

    it('answers forgot-password code requests the same for unknown addresses, and mails nothing', async () => {
      const email = await existing();
      const unknown = newEmail();
      const known = await call('/web/login/verify_email', { email, scene: 'forget' });
      const none = await call('/web/login/verify_email', { email: unknown, scene: 'forget' });
      expect(known.json()).toEqual(none.json());
      await mailTo(email);
      await expectWithheld(unknown, 'code_forget');
    });

    /** Rows in the tables a code request writes to, to compare what two requests wrote. */
    async function rowCounts() {
      const count = async (table: typeof emailCodes | typeof mailOutbox) =>
        (await t.database.db.select({ n: sql<number>`count(*)::int` }).from(table))[0]?.n;
      return { codes: await count(emailCodes), mails: await count(mailOutbox) };
    }

    /** What a code request added to each table. */
    async function writesOf(request: () => Promise<unknown>) {
      const before = await rowCounts();
      await request();
      const after = await rowCounts();
      return {
        codes: (after.codes ?? 0) - (before.codes ?? 0),
        mails: (after.mails ?? 0) - (before.mails ?? 0),
      };
    }

    it('writes the same for a reset code whether or not the address has an account', async () => {
      const email = await existing();
      const unknown = newEmail();
      const known = await writesOf(() => call('/web/login/verify_email', { email, scene: 'forget' }));
      const none = await writesOf(() => call('/web/login/verify_email', { email: unknown, scene: 'forget' }));
      expect(known).toEqual({ codes: 1, mails: 1 });
      expect(none).toEqual(known);
      await mailTo(email);
      const [stored] = await t.database.db.select().from(emailCodes).where(eq(emailCodes.email, unknown));
      expect(stored?.scene).toBe('forget');
      await expectWithheld(unknown, 'code_forget');
    });

    it('writes the same for a change-of-address code whether the address is free or taken', async () => {
      const { token } = await registered();
      const taken = await existing();
      const free = newEmail();
      const auth = { authorization: token };
      const toTaken = await writesOf(() =>
        call('/web/login/verify_email', { email: taken, scene: 'email' }, auth),
      );
      const toFree = await writesOf(() =>
        call('/web/login/verify_email', { email: free, scene: 'email' }, auth),
      );
      expect(toFree).toEqual({ codes: 1, mails: 1 });
      expect(toTaken).toEqual(toFree);
      await mailTo(free);
      await expectWithheld(taken, 'code_email');
    });

    it('answers a wrong password and an unknown address identically', async () => {
      const { email } = await registered();
      const wrong = await call('/web/login/login', { email, password: 'not the password' });
      const unknown = await call('/web/login/login', { email: newEmail(), password: 'not the password' });
      expect(wrong.statusCode).toBe(400);
      expect(unknown.statusCode).toBe(wrong.statusCode);
      expect(unknown.json()).toEqual(wrong.json());
      expect(wrong.json().data).toEqual({ reason: 'credentials_invalid' });
    });
  });

  describe('passwords and sign-in', () => {
    it('refuses a common password and one shorter than 8', async () => {
      const email = newEmail();
      const code = await askCode(email, 'register');
      const common = await call('/web/login/register', { email, password: 'password123', email_code: code });
      expect(common.json()).toMatchObject({
        code: 400,
        data: { reason: 'password_too_common', field: 'password' },
      });
      const short = await call('/web/login/register', { email, password: 'short', email_code: code });
      expect(short.json()).toMatchObject({ code: 400, data: { reason: 'field_invalid', field: 'password' } });
    });

    it('stores an argon2id hash, never the password', async () => {
      const { email } = await registered();
      const [row] = await t.database.db.select().from(users).where(eq(users.email, email));
      expect(row?.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    });

    it('signs in case-insensitively and the token works; sign-out kills it', async () => {
      const { email } = await registered();
      const res = await call('/web/login/login', { email: email.toUpperCase(), password: PASSWORD });
      expect(res.json()).toMatchObject({ code: 200, data: { account: email } });
      const token = res.json().data.token as string;
      expect((await info(token)).statusCode).toBe(200);
      expect((await call('/web/login/out', {}, { authorization: token })).json().code).toBe(200);
      expect((await info(token)).statusCode).toBe(401);
    });

    it('after 10 failures on an address answers even the right password like a wrong one', async () => {
      const { email } = await registered();
      for (let i = 0; i < 10; i++) {
        ip = newClientAddress();
        expect((await call('/web/login/login', { email, password: 'wrong password' })).json().code).toBe(400);
      }
      ip = newClientAddress();
      const right = await call('/web/login/login', { email, password: PASSWORD });
      expect(right.json()).toEqual((await call('/web/login/login', { email, password: 'wrong!' })).json());
    });

    it('slows a client address down with 429 after 100 tries in an hour', async () => {
      for (let i = 0; i < 100; i++) {
        expect(
          (await call('/web/login/login', { email: newEmail(), password: 'whatever it is' })).statusCode,
        ).toBe(400);
      }
      const res = await call('/web/login/login', { email: newEmail(), password: 'whatever it is' });
      expect(res.statusCode).toBe(429);
      expect(res.json().data.retry_after).toBeGreaterThan(3500);
    });

    it('answers a revoked account with the right password with a clear 403', async () => {
      const { email } = await registered();
      await t.database.db.update(users).set({ revokedAt: new Date() }).where(eq(users.email, email));
      const res = await call('/web/login/login', { email, password: PASSWORD });
      expect(res.json()).toMatchObject({ code: 403, data: { reason: 'account_revoked' } });
    });
  });

  describe('changing password and e-mail', () => {
    it('a password change keeps this session, ends the others and tells the owner', async () => {
      const { email, token } = await registered();
      const other = (await call('/web/login/login', { email, password: PASSWORD })).json().data
        .token as string;
      const wrongOld = await call(
        '/web/login/pass',
        { old_pwd: 'nope nope', new_pwd: 'brand new secret' },
        { authorization: token },
      );
      expect(wrongOld.json()).toMatchObject({
        code: 400,
        data: { reason: 'credentials_invalid', field: 'old_pwd' },
      });
      const res = await call(
        '/web/login/pass',
        { old_pwd: PASSWORD, new_pwd: 'brand new secret' },
        { authorization: token },
      );
      expect(res.json().code).toBe(200);
      expect((await info(token)).statusCode).toBe(200);
      // The other device is told its session has ended, not merely to sign in.
      expect((await info(other)).json()).toMatchObject({ code: 401, data: { reason: 'session_expired' } });
      await mailTo(email, /password/i);
      expect((await call('/web/login/login', { email, password: 'brand new secret' })).json().code).toBe(200);
    });

    it('a reset with a code ends every session and tells the owner', async () => {
      const { email, token } = await registered();
      const code = await askCode(email, 'forget');
      smtp.clear();
      const res = await call('/web/login/forget', { email, email_code: code, password: 'reset and ready' });
      expect(res.json().code).toBe(200);
      expect((await info(token)).statusCode).toBe(401);
      await mailTo(email, /password/i);
      expect((await call('/web/login/login', { email, password: 'reset and ready' })).json().code).toBe(200);
    });

    it('a reset lifts the lock that failed sign-ins by someone else put on the address', async () => {
      const { email } = await registered();
      for (let i = 0; i < 11; i++) {
        ip = newClientAddress();
        await call('/web/login/login', { email, password: 'an attacker guessing' });
      }
      ip = newClientAddress();
      const code = await askCode(email, 'forget');
      expect(
        (await call('/web/login/forget', { email, email_code: code, password: 'reset and ready' })).json()
          .code,
      ).toBe(200);
      expect((await call('/web/login/login', { email, password: 'reset and ready' })).json().code).toBe(200);
    });

    it('an e-mail change needs a code sent to the new address, ends every session and tells the old one', async () => {
      const { email, token } = await registered();
      const next = newEmail();
      expect((await call('/web/login/verify_email', { email: next, scene: 'email' })).statusCode).toBe(401);
      const code = await askCode(next, 'email', { authorization: token });
      const res = await call('/web/login/email', { email: next, email_code: code }, { authorization: token });
      expect(res.json()).toMatchObject({ code: 200, data: { account: next } });
      expect((await info(token)).statusCode).toBe(401);
      expect((await info(res.json().data.token)).json().data.account).toBe(next);
      const notice = await mailTo(email);
      expect(notice.text).toContain(next);
      expect((await call('/web/login/login', { email: next, password: PASSWORD })).json().code).toBe(200);
    });

    it('refuses an address that belongs to another account with 409', async () => {
      const first = await registered();
      const second = await registered();
      await call(
        '/web/login/verify_email',
        { email: first.email, scene: 'email' },
        { authorization: second.token },
      );
      await expectWithheld(first.email, 'code_email');
      const res = await call(
        '/web/login/email',
        { email: first.email, email_code: '123456' },
        { authorization: second.token },
      );
      expect(res.json().code).toBe(400);
      const same = await call(
        '/web/login/email',
        { email: second.email, email_code: '123456' },
        { authorization: second.token },
      );
      expect(same.json()).toMatchObject({ code: 409, data: { reason: 'email_taken' } });
    });
  });
});
