import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { NoticeAudience } from '@skyway/shared/notices';
import type { Database, DatabaseHandle } from '../../db/client.ts';
import { mailOutbox, notices, users } from '../../db/schema/index.ts';
import { COMMAND_LINE } from '../audit/repository.ts';
import { testMailer } from '../../testing/test-mailer.ts';
import { createNotice, takeDownNotice } from './service.ts';
import { createUser } from '../users/repository.ts';
import { openTestDatabase, openTwoInstances, testDatabaseKind } from '../../testing/test-database.ts';
import { runNoticeMail } from './notice-mail.ts';

const HOUR = 3_600_000;
const ORIGIN = 'https://vpn.example.com';
const KEY = 'notice-mail-test-key-0123456789abcdef';

const run = (db: Database, batchSize?: number, now = new Date()) =>
  runNoticeMail({
    db,
    mailer: testMailer(db),
    now,
    origin: ORIGIN,
    subscriptionKey: KEY,
    ...(batchSize ? { batchSize } : {}),
  });

let count = 0;
/** An account whose access ends `accessMs` from now (null: never had any). */
async function account(
  db: Database,
  accessMs: number | null,
  values: Partial<typeof users.$inferInsert> = {},
) {
  count += 1;
  const user = await createUser(db, {
    email: `noticed${count}@example.com`,
    language: values.language ?? 'en',
  });
  const expireAt = accessMs === null ? null : new Date(Date.now() + accessMs);
  await db
    .update(users)
    .set({ expireAt, ...values })
    .where(eq(users.id, user.id));
  return user;
}

const notice = (
  db: Database,
  fields: { audience?: NoticeAudience; byMail?: boolean; publishAt?: Date | null } = {},
) =>
  createNotice(
    db,
    COMMAND_LINE,
    {
      title: { en: 'Maintenance tonight', zh: '今晚维护', tw: '今晚維護' },
      body: { en: 'From **02:00**.', zh: '**02:00** 开始。', tw: '**02:00** 開始。' },
      audience: fields.audience ?? 'all',
      on_download_page: false,
      by_mail: fields.byMail ?? true,
      publish_at:
        (fields.publishAt === undefined ? new Date(Date.now() - 1000) : fields.publishAt)?.toISOString() ??
        null,
      expire_at: null,
    },
    new Date(),
  );

const mailed = (db: Database) => db.select().from(mailOutbox).where(eq(mailOutbox.template, 'notice'));

describe('notices by mail', () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    await database.db.delete(mailOutbox);
    await database.db.delete(notices);
    await database.db.delete(users);
  });

  it('mails each account of the audience once, in its language, with the unsubscribe headers', async () => {
    const db = database.db;
    const paying = await account(db, HOUR, { language: 'zh' });
    const lapsed = await account(db, -HOUR, { language: 'tw' });
    const never = await account(db, null);
    await account(db, HOUR, { mailOptOutAt: new Date() });
    await account(db, HOUR, { revokedAt: new Date() });
    const sent = await notice(db);
    expect(await run(db)).toEqual({ mailed: 3 });
    expect(await run(db)).toEqual({ mailed: 0 });
    const mails = await mailed(db);
    expect(mails.map((mail) => mail.userId).sort()).toEqual([paying.id, lapsed.id, never.id].sort());
    const zh = mails.find((mail) => mail.userId === paying.id);
    expect(zh?.subject).toBe('【Skyway】今晚维护');
    expect(zh?.html).toContain('<strong>02:00</strong>');
    expect(zh?.unsubscribeUrl).toMatch(new RegExp(`^${ORIGIN}/unsubscribe/`));
    expect(zh?.text).toContain(zh?.unsubscribeUrl ?? 'no link');
    expect(zh?.priority).toBeGreaterThan(2);
    expect(mails.find((mail) => mail.userId === lapsed.id)?.subject).toBe('【Skyway】今晚維護');
    const [row] = await db.select().from(notices).where(eq(notices.id, sent.id));
    expect(row?.mailed).toBe(3);
    expect(row?.mailedAt).not.toBeNull();
  });

  it('mails only the audience it names, as its access stands', async () => {
    const db = database.db;
    const paying = await account(db, HOUR);
    const lapsed = await account(db, -HOUR);
    const never = await account(db, null);
    await notice(db, { audience: 'with_access' });
    await run(db);
    expect((await mailed(db)).map((mail) => mail.userId)).toEqual([paying.id]);
    await database.db.delete(mailOutbox);
    await notice(db, { audience: 'without_access' });
    await run(db);
    expect((await mailed(db)).map((mail) => mail.userId).sort()).toEqual([lapsed.id, never.id].sort());
  });

  it('mails nothing for a draft, a scheduled or a taken-down notice, nor one not marked for mail', async () => {
    const db = database.db;
    await account(db, HOUR);
    await notice(db, { publishAt: null });
    await notice(db, { publishAt: new Date(Date.now() + HOUR) });
    await notice(db, { byMail: false });
    const down = await notice(db);
    await takeDownNotice(db, COMMAND_LINE, down.id, new Date());
    expect(await run(db)).toEqual({ mailed: 0 });
    expect(await mailed(db)).toEqual([]);
  });

  /** A mailer whose write fails at its `failAt`th batch, as a crash of the instance would leave it. */
  function failingMailer(db: Database, failAt: number) {
    const mailer = testMailer(db);
    let batches = 0;
    return {
      queueBatch: async (...args: Parameters<typeof mailer.queueBatch>) => {
        batches += 1;
        await mailer.queueBatch(...args);
        if (batches === failAt) throw new Error('the instance went away');
      },
      deliverSoon: mailer.deliverSoon,
      render: mailer.render,
    };
  }
  const runWith = (db: Database, mailer: ReturnType<typeof failingMailer>) =>
    runNoticeMail({ db, mailer, now: new Date(), origin: ORIGIN, subscriptionKey: KEY, batchSize: 2 });

  it('goes a batch at a time; a batch that fails writes nothing, and the next run goes on from there', async () => {
    const db = database.db;
    await Promise.all(Array.from({ length: 9 }, () => account(db, HOUR)));
    const sent = await notice(db);
    await expect(runWith(db, failingMailer(db, 3))).rejects.toThrow('went away');
    expect(await mailed(db)).toHaveLength(4);
    expect(await run(db, 2)).toEqual({ mailed: 5 });
    const mails = await mailed(db);
    expect(mails).toHaveLength(9);
    expect(new Set(mails.map((mail) => mail.userId)).size).toBe(9);
    const [row] = await db.select().from(notices).where(eq(notices.id, sent.id));
    expect(row?.mailed).toBe(9);
  });

  it('mails a notice taken down half-way no further', async () => {
    const db = database.db;
    await Promise.all(Array.from({ length: 9 }, () => account(db, HOUR)));
    const halted = await notice(db);
    await expect(runWith(db, failingMailer(db, 2))).rejects.toThrow('went away');
    expect(await mailed(db)).toHaveLength(2);
    await takeDownNotice(db, COMMAND_LINE, halted.id, new Date());
    expect(await run(db, 2)).toEqual({ mailed: 0 });
    expect(await mailed(db)).toHaveLength(2);
  });
});

describe.runIf(testDatabaseKind === 'postgres')('notices by mail on two instances', () => {
  let instances: Awaited<ReturnType<typeof openTwoInstances>>;
  let first: DatabaseHandle;
  let second: DatabaseHandle;

  beforeAll(async () => {
    instances = await openTwoInstances();
    ({ first, second } = instances);
  });
  afterAll(() => instances?.close());

  it('mails each account once when both run at the same moment, twice, in batches', async () => {
    await Promise.all(Array.from({ length: 60 }, () => account(first.db, HOUR)));
    await notice(first.db);
    const results = await Promise.all([run(first.db, 7), run(second.db, 7)]);
    const again = await Promise.all([run(first.db, 7), run(second.db, 7)]);
    expect(results.reduce((sum, result) => sum + result.mailed, 0)).toBe(60);
    expect(again.reduce((sum, result) => sum + result.mailed, 0)).toBe(0);
    const mails = await mailed(first.db);
    expect(mails).toHaveLength(60);
    expect(new Set(mails.map((mail) => mail.userId)).size).toBe(60);
  });
});
