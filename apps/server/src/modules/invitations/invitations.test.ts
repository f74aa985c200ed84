import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expiryLedger, inviteRewards, users } from '../../db/schema/index.ts';
import { codeIn, type SmtpCatcher, startSmtpCatcher } from '../../testing/smtp-catcher.ts';
import { newClientAddress, useTestApp, webCaller } from '../../testing/test-app.ts';
import { testDatabaseKind } from '../../testing/test-database.ts';
import { resetSetting, writeSetting } from '../settings/repository.ts';
import { canonicalEmail, maskEmail } from './addresses.ts';

const run = randomBytes(4).toString('hex');
let seq = 0;
const newEmail = (domain = 'example.com') => `inv${++seq}.${run}@${domain}`;
const PASSWORD = 'correct horse battery';
const DAY = 1440;

describe('addresses', () => {
  it('treats case, plus tags and Gmail dots as one mailbox', () => {
    expect(canonicalEmail('A.B+promo@GMail.com')).toBe('ab@gmail.com');
    expect(canonicalEmail('a.b@googlemail.com')).toBe('ab@gmail.com');
    expect(canonicalEmail('A.B+x@qq.com')).toBe('a.b@qq.com');
  });

  it('masks an account as ab***@domain', () => {
    expect(maskEmail('abcdef@qq.com')).toBe('ab***@qq.com');
    expect(maskEmail('ab@qq.com')).toBe('a***@qq.com');
  });
});

describe('trial and invitations', () => {
  let smtp: SmtpCatcher;
  let ip: string;

  beforeAll(async () => {
    smtp = await startSmtpCatcher();
  });
  afterAll(() => smtp.close());
  const t = useTestApp(() => ({ SMTP_URL: smtp.url }));
  beforeEach(async () => {
    ip = newClientAddress();
    for (const key of ['open_trial', 'trial_minute', 'invite_minute', 'invite_daily_cap'] as const) {
      await resetSetting(t.database.db, key);
    }
  });

  const call = webCaller(
    () => t.app,
    () => ip,
  );

  async function codeFor(email: string) {
    expect((await call('/web/login/verify_email', { email, scene: 'register' })).json().code).toBe(200);
    return codeIn(await smtp.waitFor((mail) => mail.to === email));
  }

  async function register(email = newEmail(), inviteCode?: string) {
    const res = await call('/web/login/register', {
      email,
      password: PASSWORD,
      email_code: await codeFor(email),
      invite_code: inviteCode,
    });
    expect(res.json().code).toBe(200);
    return res.json().data as { token: string; invite_code: string; account: string };
  }

  const userId = async (email: string) => {
    const [row] = await t.database.db.select().from(users).where(eq(users.email, email));
    if (!row) throw new Error(`no account ${email}`);
    return row.id;
  };

  const expireOf = async (email: string) => {
    const [row] = await t.database.db.select().from(users).where(eq(users.email, email));
    return row?.expireAt?.getTime() ?? 0;
  };

  it('says whether the trial is open and how long it and a reward are', async () => {
    expect((await call('/web/invite/conf')).json().data).toEqual({
      open_trial: '1',
      trial_minute: DAY,
      invite_minute: DAY,
    });
    await writeSetting(t.database.db, 'trial_minute', '120');
    await writeSetting(t.database.db, 'open_trial', '0');
    expect((await call('/web/invite/conf')).json().data).toMatchObject({
      open_trial: '0',
      trial_minute: 120,
    });
  });

  const trialEndOf = async (token: string) =>
    (await call('/web/user/info', {}, token)).json().data.trial_end as number;

  it('grants the trial once, from now, with a ledger row; the second claim is a localized 409', async () => {
    const a = await register();
    expect(await trialEndOf(a.token)).toBe(0);
    const before = Date.now();
    const first = await call('/web/invite/claim', {}, a.token);
    expect(first.json()).toMatchObject({ code: 200, data: { trial_time: DAY } });
    const expire = first.json().data.expire_user as number;
    expect(expire * 1000).toBeGreaterThanOrEqual(before + DAY * 60_000 - 1000);
    expect(expire * 1000).toBeLessThanOrEqual(Date.now() + DAY * 60_000);
    const second = await call('/web/invite/claim', { l: 'zh-cn' }, a.token);
    expect(second.json()).toEqual({
      code: 409,
      msg: '您已领取过免费试用',
      data: { reason: 'trial_claimed' },
    });
    const ledger = await t.database.db
      .select()
      .from(expiryLedger)
      .where(eq(expiryLedger.userId, await userId(a.account)));
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({ reason: 'trial', seconds: DAY * 60, fromExpireAt: null });
    // The user's info says when the trial's access ends; the refused second claim changes nothing.
    expect(await trialEndOf(a.token)).toBe(expire);
  });

  it('adds the trial after existing time and refuses it while closed', async () => {
    const a = await register();
    const later = new Date(Date.now() + 10 * DAY * 60_000);
    await t.database.db.update(users).set({ expireAt: later }).where(eq(users.email, a.account));
    await writeSetting(t.database.db, 'open_trial', '0');
    expect((await call('/web/invite/claim', {}, a.token)).json().data.reason).toBe('trial_closed');
    expect(await trialEndOf(a.token)).toBe(0);
    await writeSetting(t.database.db, 'open_trial', '1');
    const res = await call('/web/invite/claim', {}, a.token);
    const trialEnd = Math.floor((later.getTime() + DAY * 60_000) / 1000);
    expect(res.json().data.expire_user).toBe(trialEnd);
    // The access the trial granted ends after the time the account had; time added later (an
    // invitation reward, with its own ledger row) does not move it.
    expect(await trialEndOf(a.token)).toBe(trialEnd);
    await register(newEmail(), a.invite_code);
    expect((await call('/web/invite/withdraw', {}, a.token)).json().data.expire_user).toBe(
      trialEnd + DAY * 60,
    );
    expect(await trialEndOf(a.token)).toBe(trialEnd);
  });

  it('rewards the inviter, lists the invitee masked, and withdraws the minutes once', async () => {
    const a = await register();
    const bEmail = newEmail();
    await register(bEmail, a.invite_code);
    const list = await call('/web/invite/list', { page: 1, size: 10 }, a.token);
    expect(list.json().data).toMatchObject({
      total: 1,
      unclaimed_users: 1,
      unclaimed_minutes: DAY,
      invite_code: a.invite_code,
      list: [{ account: maskEmail(bEmail), trial_minute: DAY, claimed: false }],
    });
    const before = await expireOf(a.account);
    const withdrawn = await call('/web/invite/withdraw', {}, a.token);
    expect(withdrawn.json()).toMatchObject({ code: 200, data: { trial_time: DAY } });
    expect(await expireOf(a.account)).toBeGreaterThanOrEqual(
      Math.max(before, Date.now() - 5000) + DAY * 60_000 - 5000,
    );
    expect((await call('/web/invite/withdraw', {}, a.token)).json().data.trial_time).toBe(0);
    const after = await call('/web/invite/list', {}, a.token);
    expect(after.json().data).toMatchObject({
      unclaimed_users: 0,
      unclaimed_minutes: 0,
      list: [{ claimed: true }],
    });
  });

  it('gives no reward for inviting yourself under another spelling', async () => {
    const a = await register(`self.${run}@gmail.com`);
    await register(`self${run}+alt@gmail.com`, a.invite_code);
    expect((await call('/web/invite/list', {}, a.token)).json().data).toMatchObject({
      total: 1,
      unclaimed_minutes: 0,
    });
  });

  it('stops rewarding at the daily cap', async () => {
    await writeSetting(t.database.db, 'invite_daily_cap', '2');
    const a = await register();
    for (let i = 0; i < 3; i++) await register(newEmail(), a.invite_code);
    const data = (await call('/web/invite/list', {}, a.token)).json().data;
    expect(data).toMatchObject({ total: 3, unclaimed_users: 2, unclaimed_minutes: 2 * DAY });
  });

  it('pages the list', async () => {
    const a = await register();
    for (let i = 0; i < 3; i++) await register(newEmail(), a.invite_code);
    const page2 = (await call('/web/invite/list', { page: 2, size: 2 }, a.token)).json().data;
    expect(page2.total).toBe(3);
    expect(page2.list).toHaveLength(1);
    expect((await call('/web/invite/list', { page: 0 }, a.token)).json().data.field).toBe('page');
  });

  describe.runIf(testDatabaseKind === 'postgres')('under concurrency', () => {
    it('50 concurrent claims grant the trial exactly once', async () => {
      const a = await register();
      const replies = await Promise.all(
        Array.from({ length: 50 }, () => call('/web/invite/claim', {}, a.token)),
      );
      expect(replies.filter((res) => res.json().code === 200)).toHaveLength(1);
      expect(replies.filter((res) => res.json().data.reason === 'trial_claimed')).toHaveLength(49);
      const id = await userId(a.account);
      expect(await t.database.db.select().from(expiryLedger).where(eq(expiryLedger.userId, id))).toHaveLength(
        1,
      );
    });

    it('50 concurrent withdraws credit the minutes exactly once', async () => {
      const a = await register();
      await register(newEmail(), a.invite_code);
      const before = Date.now();
      const replies = await Promise.all(
        Array.from({ length: 50 }, () => call('/web/invite/withdraw', {}, a.token)),
      );
      expect(replies.map((res) => res.json().data.trial_time).filter((m) => m > 0)).toEqual([DAY]);
      expect(await expireOf(a.account)).toBeLessThanOrEqual(Date.now() + DAY * 60_000);
      expect(await expireOf(a.account)).toBeGreaterThanOrEqual(before + DAY * 60_000 - 1000);
    });

    /** Registers `count` new accounts through one invite link at the same moment, each with its own code. */
    async function registerAtOnce(count: number, inviteCode: string) {
      const emails = Array.from({ length: count }, () => newEmail());
      const codes: string[] = [];
      for (const email of emails) codes.push(await codeFor(email));
      return Promise.all(
        emails.map((email, i) =>
          call('/web/login/register', {
            email,
            password: PASSWORD,
            email_code: codes[i],
            invite_code: inviteCode,
          }),
        ),
      );
    }

    const rewardsOf = async (account: string) =>
      t.database.db
        .select()
        .from(inviteRewards)
        .where(eq(inviteRewards.inviterId, await userId(account)));

    it('12 parallel registrations through one invite link all succeed, within the cap', async () => {
      await writeSetting(t.database.db, 'invite_daily_cap', '5');
      const a = await register();
      const replies = await registerAtOnce(12, a.invite_code);
      expect(replies.map((res) => res.json().code)).toEqual(replies.map(() => 200));
      expect(await rewardsOf(a.account)).toHaveLength(5);
    });

    it('two concurrent registrations at the cap do not exceed it', async () => {
      await writeSetting(t.database.db, 'invite_daily_cap', '1');
      const a = await register();
      await registerAtOnce(2, a.invite_code);
      expect(await rewardsOf(a.account)).toHaveLength(1);
    });
  });
});
