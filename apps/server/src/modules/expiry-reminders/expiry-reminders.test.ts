import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database, DatabaseHandle } from '../../db/client.ts';
import { expiryReminders, mailOutbox, orders, users, type UserRow } from '../../db/schema/index.ts';
import { inAccountTransaction } from '../access/access.ts';
import { testMailer } from '../../testing/test-mailer.ts';
import { resetSetting, writeSetting } from '../settings/repository.ts';
import { createUser } from '../users/repository.ts';
import { openTestDatabase, openTwoInstances, testDatabaseKind } from '../../testing/test-database.ts';
import { customerTime } from '../../lib/customer-time.ts';
import { runExpiryReminders } from './expiry-reminders.ts';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const T0 = new Date('2026-03-01T00:00:00Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const ORIGIN = 'https://vpn.example.com';
const KEY = 'reminders-test-key-0123456789abcdef';

let database: DatabaseHandle;
let clock = T0;

const run = (now: Date, db: Database = database.db, batchSize?: number) => {
  clock = now;
  return runExpiryReminders({
    db,
    mailer: testMailer(db, { now: () => clock }),
    now,
    origin: ORIGIN,
    subscriptionKey: KEY,
    ...(batchSize ? { batchSize } : {}),
  });
};

let count = 0;

/** An account that bought a month of `connections` at `boughtAt` (an order and the access's ledger). */
async function buyer(
  options: { boughtAt?: Date; days?: number; connections?: number; language?: string } = {},
  db: Database = database.db,
): Promise<UserRow> {
  count += 1;
  const n = count;
  const user = await createUser(db, {
    email: `reminded${n}@example.com`,
    language: options.language ?? 'en',
  });
  const boughtAt = options.boughtAt ?? at(-20 * DAY);
  const orderId = `order-reminders-${n}`;
  await db.insert(orders).values({
    id: orderId,
    userId: user.id,
    period: 'month',
    months: 1,
    days: options.days ?? 31,
    connections: options.connections ?? 2,
    unitPrice: 2500,
    amount: 2500 * (options.connections ?? 2),
    currency: 'CNY',
    payMethod: 'alipay',
    provider: 'sandbox',
    status: 'paid',
    createdAt: boughtAt,
    latestPayAt: boughtAt,
    paidAt: boughtAt,
  });
  await inAccountTransaction(db, user.id, boughtAt, (account) =>
    account.purchase({ id: orderId, days: options.days ?? 31, connections: options.connections ?? 2 }),
  );
  return reload(user, db);
}

async function reload(user: UserRow, db: Database = database.db): Promise<UserRow> {
  const [row] = await db.select().from(users).where(eq(users.id, user.id));
  if (!row) throw new Error('no account');
  return row;
}

const mailsTo = (user: UserRow, db: Database = database.db) =>
  db.select().from(mailOutbox).where(eq(mailOutbox.userId, user.id)).orderBy(mailOutbox.createdAt);

const endOf = (user: UserRow) => {
  if (!user.expireAt) throw new Error('no access');
  return user.expireAt.getTime() - T0.getTime();
};

describe('expiry reminders', () => {
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    await database.db.delete(mailOutbox);
    await database.db.delete(expiryReminders);
    await resetSetting(database.db, 'reminder_days');
  });

  it('mails 7, 3 and 1 days before the end and at the end, each once, with the plan, the time and the links', async () => {
    const user = await buyer({ connections: 3 });
    const end = endOf(user);
    for (const [days, template] of [
      [7, 'expiry_reminder'],
      [3, 'expiry_reminder'],
      [1, 'expiry_reminder'],
      [0, 'expiry_ended'],
    ] as const) {
      const moment = end - days * DAY;
      // Not before its moment; then once, however often the job runs.
      await run(at(moment - 60_000));
      await run(at(moment));
      await run(at(moment + HOUR));
      const mails = await mailsTo(user);
      expect(mails.at(-1)?.template, `${days} days`).toBe(template);
    }
    const mails = await mailsTo(user);
    expect(mails.map((mail) => mail.template)).toEqual([
      'expiry_reminder',
      'expiry_reminder',
      'expiry_reminder',
      'expiry_ended',
    ]);
    const [first] = mails;
    const time = customerTime(user.expireAt ?? new Date(0));
    expect(first?.subject).toBe(`Reminder: your Skyway access ends on ${time}`);
    expect(first?.text).toContain('(Monthly, 3 connections)');
    expect(first?.text).toContain(`${ORIGIN}/buy`);
    expect(first?.unsubscribeUrl).toMatch(
      new RegExp(`^${ORIGIN}/unsubscribe/[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]{22}$`),
    );
    expect(first?.text).toContain(first?.unsubscribeUrl ?? 'no link');
    expect(first?.priority).toBeGreaterThan(2);
  });

  it('writes in the account’s language, with the time in UTC+8', async () => {
    const user = await buyer({ language: 'zh' });
    await run(at(endOf(user) - 7 * DAY));
    const [mail] = await mailsTo(user);
    expect(customerTime(new Date('2026-03-31T16:30:00Z'))).toBe('2026-04-01 00:30:00 (UTC+8)');
    expect(mail?.subject).toBe(
      `提醒：您的 Skyway 服务将于 ${customerTime(user.expireAt ?? new Date(0))} 到期`,
    );
    expect(mail?.text).toContain('月付，2 个连接数');
  });

  it('sends nothing to a closed, inactive-warned, unsubscribed or self-renewing account', async () => {
    const excluded = await Promise.all(Array.from({ length: 4 }, () => buyer()));
    const [closed, warned, unsubscribed, renewing] = excluded as [UserRow, UserRow, UserRow, UserRow];
    await database.db.update(users).set({ revokedAt: T0 }).where(eq(users.id, closed.id));
    await database.db.update(users).set({ inactiveWarnedAt: T0 }).where(eq(users.id, warned.id));
    await database.db.update(users).set({ mailOptOutAt: T0 }).where(eq(users.id, unsubscribed.id));
    await database.db.update(users).set({ autoRenew: true }).where(eq(users.id, renewing.id));
    const end = endOf(closed);
    for (const days of [7, 3, 1, 0]) await run(at(end - days * DAY));
    for (const user of excluded) expect(await mailsTo(user)).toEqual([]);
  });

  it('takes a renewal into account: the old end’s reminders stop, the new end’s come', async () => {
    const user = await buyer();
    const end = endOf(user);
    await run(at(end - 7 * DAY));
    expect(await mailsTo(user)).toHaveLength(1);
    // Renewed for a month, 5 days before the end.
    await inAccountTransaction(database.db, user.id, at(end - 5 * DAY), (account) =>
      account.purchase({ id: `renewal-${user.id}`, days: 31, connections: 2 }),
    );
    const renewed = await reload(user);
    await run(at(end - 3 * DAY));
    await run(at(end - 1 * DAY));
    await run(at(end));
    expect(await mailsTo(user)).toHaveLength(1);
    await run(at(endOf(renewed) - 7 * DAY));
    const mails = await mailsTo(user);
    expect(mails).toHaveLength(2);
    expect(mails[1]?.subject).toContain(customerTime(renewed.expireAt ?? new Date(0)));
  });

  it('cancels a reminder still waiting for SMTP once the account renews, and sends the others', async () => {
    const renewing = await buyer();
    const staying = await buyer();
    const end = endOf(renewing);
    clock = at(end - 7 * DAY);
    // SMTP is away: both reminders wait in the outbox.
    const away = testMailer(database.db, { smtpUrl: 'smtp://127.0.0.1:9', now: () => clock });
    await runExpiryReminders({
      db: database.db,
      mailer: away,
      now: clock,
      origin: ORIGIN,
      subscriptionKey: KEY,
    });
    await away.close();
    for (const user of [renewing, staying]) {
      expect((await mailsTo(user)).map((mail) => mail.status)).toEqual(['pending']);
    }
    await inAccountTransaction(database.db, renewing.id, at(end - 6 * DAY), (account) =>
      account.purchase({ id: `renewal-while-away-${renewing.id}`, days: 31, connections: 2 }),
    );
    // SMTP is back an hour later.
    clock = at(end - 6 * DAY + HOUR);
    expect(await testMailer(database.db, { now: () => clock }).deliverDue()).toMatchObject({ outdated: 1 });
    expect((await mailsTo(renewing)).map((mail) => mail.status)).toEqual(['cancelled']);
    expect((await mailsTo(staying)).map((mail) => mail.status)).toEqual(['logged']);
  });

  it('does not remind of an end the account learnt after the moment (a short access), nor of one long past', async () => {
    // Two days of access bought: no "7 days" or "3 days" reminders, which would arrive at once.
    const short = await buyer({ boughtAt: T0, days: 2 });
    await run(T0);
    await run(at(HOUR));
    expect(await mailsTo(short)).toEqual([]);
    await run(at(endOf(short) - DAY));
    expect((await mailsTo(short)).map((mail) => mail.template)).toEqual(['expiry_reminder']);

    // The job was down 13 hours past the 7-day moment: that one is skipped, the next ones are not.
    const late = await buyer();
    await run(at(endOf(late) - 7 * DAY + 13 * HOUR));
    expect(await mailsTo(late)).toEqual([]);
    await run(at(endOf(late) - 3 * DAY));
    expect(await mailsTo(late)).toHaveLength(1);
  });

  it('follows the operator’s days', async () => {
    await writeSetting(database.db, 'reminder_days', '10, 2');
    await expect(writeSetting(database.db, 'reminder_days', '3,3')).rejects.toThrow(/reminder_days/);
    await expect(writeSetting(database.db, 'reminder_days', '0,90')).rejects.toThrow(/reminder_days/);
    const user = await buyer();
    const end = endOf(user);
    for (const days of [10, 7, 3, 2, 1, 0]) await run(at(end - days * DAY));
    const sentDays = await database.db
      .select({ days: expiryReminders.days })
      .from(expiryReminders)
      .where(eq(expiryReminders.userId, user.id));
    expect(sentDays.map((row) => row.days).sort((a, b) => b - a)).toEqual([10, 2, 0]);
  });

  it('goes through many accounts a batch at a time', async () => {
    // A day later than the other tests' accounts, whose reminders are long past by then.
    const many = await Promise.all(Array.from({ length: 25 }, () => buyer({ boughtAt: at(-19 * DAY) })));
    const result = await run(at(endOf(many[0] as UserRow) - 7 * DAY + HOUR), database.db, 4);
    expect(result.sent[7]).toBe(25);
    const mails = await database.db.select().from(mailOutbox);
    expect(new Set(mails.map((mail) => mail.userId)).size).toBe(25);
  });
});

describe.runIf(testDatabaseKind === 'postgres')('expiry reminders on two instances', () => {
  let instances: Awaited<ReturnType<typeof openTwoInstances>>;
  let first: DatabaseHandle;
  let second: DatabaseHandle;

  beforeAll(async () => {
    instances = await openTwoInstances();
    ({ first, second } = instances);
  });
  afterAll(() => instances?.close());

  it('sends each reminder once when both run at the same moment, in batches', async () => {
    const accounts = await Promise.all(Array.from({ length: 60 }, () => buyer({}, first.db)));
    const moment = at(endOf(accounts[0] as UserRow) - 3 * DAY + HOUR);
    const results = await Promise.all([run(moment, first.db, 7), run(moment, second.db, 7)]);
    expect(results.reduce((sum, result) => sum + (result.sent[3] ?? 0), 0)).toBe(60);
    const again = await Promise.all([run(moment, first.db, 7), run(moment, second.db, 7)]);
    expect(again.reduce((sum, result) => sum + (result.sent[3] ?? 0), 0)).toBe(0);
    const mails = await first.db.select().from(mailOutbox);
    expect(mails).toHaveLength(60);
    expect(new Set(mails.map((mail) => mail.userId)).size).toBe(60);
  });
});
