import { eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database, DatabaseHandle } from '../../db/client.ts';
import { jobRuns, mailOutbox, users, type UserRow } from '../../db/schema/index.ts';
import type { Mailer } from '../mail/mailer.ts';
import { testMailer } from '../../testing/test-mailer.ts';
import { createUser } from '../users/repository.ts';
import { startSmtpCatcher } from '../../testing/smtp-catcher.ts';
import { openTestDatabase, openTwoInstances, testDatabaseKind } from '../../testing/test-database.ts';
import { INACTIVE_ACCOUNTS_LOCK_ID } from './inactive-accounts-repository.ts';
import { INACTIVE_ACCOUNTS_JOB, runInactiveAccounts } from './inactive-accounts.ts';
import { findJobRun } from '../operations/job-runs-repository.ts';

const DAY = 24 * 60 * 60 * 1000;
const T0 = new Date('2025-06-01T00:00:00Z');
const daysAfter = (date: Date, days: number) => new Date(date.getTime() + days * DAY);

let database: DatabaseHandle;
let mailer: Mailer;
// The mailer's time follows the job's, so that a warning is delivered when the job runs.
let clock = T0;

/** Without SMTP, as here by default, writing a warning to the log is its delivery. */
beforeAll(async () => {
  database = await openTestDatabase();
  mailer = testMailer(database.db, { now: () => clock });
});
afterAll(() => database.close());
beforeEach(async () => {
  await database.db.delete(mailOutbox);
  await database.db.delete(jobRuns);
  await database.db.delete(users);
});

let accountCount = 0;

interface AccountShape {
  createdDaysAgo: number;
  lastLoginDaysAgo?: number;
  expireAt?: Date;
  language?: string;
}

/** An account as it stands at T0. */
async function account(shape: AccountShape, db: Database = database.db): Promise<UserRow> {
  accountCount += 1;
  const user = await createUser(db, {
    email: `user${accountCount}@example.com`,
    language: shape.language ?? 'en',
  });
  const [row] = await db
    .update(users)
    .set({
      createdAt: daysAfter(T0, -shape.createdDaysAgo),
      lastLoginAt: shape.lastLoginDaysAgo === undefined ? null : daysAfter(T0, -shape.lastLoginDaysAgo),
      expireAt: shape.expireAt ?? null,
    })
    .where(eq(users.id, user.id))
    .returning();
  if (!row) throw new Error('no row');
  return row;
}

async function reload(user: UserRow): Promise<UserRow> {
  const [row] = await database.db.select().from(users).where(eq(users.id, user.id));
  if (!row) throw new Error('no row');
  return row;
}

async function run(now: Date, through: Mailer = mailer) {
  clock = now;
  const result = await runInactiveAccounts({ db: database.db, mailer: through, now });
  await through.idle();
  return result;
}
const warningsTo = async (email: string) =>
  (await database.db.select().from(mailOutbox).where(eq(mailOutbox.to, email))).filter(
    (mail) => mail.template === 'inactive_warning',
  );

describe('the inactive-accounts job', () => {
  it('leaves a fresh account alone', async () => {
    const fresh = await account({ createdDaysAgo: 1 });
    expect(await run(T0)).toMatchObject({ warned: 0, revoked: 0, skipped: false });
    expect(await reload(fresh)).toMatchObject({ inactiveWarnedAt: null, revokedAt: null });
  });

  it('counts three months as 92 days since the later of sign-in and creation', async () => {
    const signedInRecently = await account({ createdDaysAgo: 400, lastLoginDaysAgo: 91 });
    const justUnder = await account({ createdDaysAgo: 91.9 });
    const justOver = await account({ createdDaysAgo: 92.1 });
    expect(await run(T0)).toMatchObject({ warned: 1 });
    expect((await reload(signedInRecently)).inactiveWarnedAt).toBeNull();
    expect((await reload(justUnder)).inactiveWarnedAt).toBeNull();
    expect((await reload(justOver)).inactiveWarnedAt).toEqual(T0);
  });

  it('warns an inactive account without access once, by mail in its language', async () => {
    const lapsed = await account({
      createdDaysAgo: 300,
      lastLoginDaysAgo: 120,
      expireAt: daysAfter(T0, -30),
      language: 'tw',
    });
    expect(await run(T0)).toMatchObject({ warned: 1, revoked: 0 });
    expect(await run(daysAfter(T0, 1))).toMatchObject({ warned: 0, revoked: 0 });

    expect((await reload(lapsed)).inactiveWarnedAt).toEqual(T0);
    const mails = await warningsTo(lapsed.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.language).toBe('tw');
    expect(mails[0]?.subject).toBe('您的 Skyway 帳號將於 2025-06-08 停用');
  });

  it('never warns or revokes an account with access', async () => {
    const paying = await account({ createdDaysAgo: 500, lastLoginDaysAgo: 400, expireAt: daysAfter(T0, 60) });
    for (const day of [0, 8, 16, 59]) {
      expect(await run(daysAfter(T0, day))).toMatchObject({ warned: 0, revoked: 0 });
    }
    expect(await reload(paying)).toMatchObject({ inactiveWarnedAt: null, revokedAt: null });
    expect(await warningsTo(paying.email)).toEqual([]);
  });

  it('revokes 7 days after the warning, not before, and then leaves the account alone', async () => {
    const idle = await account({ createdDaysAgo: 200 });
    await run(T0);
    expect(await run(daysAfter(T0, 6.9))).toMatchObject({ revoked: 0 });
    expect((await reload(idle)).revokedAt).toBeNull();

    const revokedAt = daysAfter(T0, 7);
    expect(await run(revokedAt)).toMatchObject({ warned: 0, revoked: 1 });
    expect(await reload(idle)).toMatchObject({ revokedAt, inactiveWarnedAt: T0 });

    expect(await run(daysAfter(T0, 30))).toMatchObject({ warned: 0, revoked: 0, cleared: 0 });
    expect((await reload(idle)).revokedAt).toEqual(revokedAt);
    expect(await warningsTo(idle.email)).toHaveLength(1);
  });

  it('revokes only 7 days after the warning was delivered, never while it waits in the queue', async () => {
    const down = await startSmtpCatcher();
    await down.close();
    const smtp = testMailer(database.db, { smtpUrl: down.url, now: () => clock });
    const idle = await account({ createdDaysAgo: 200 });
    expect(await run(T0, smtp)).toMatchObject({ warned: 1, unmailed: 0 });
    expect(await warningsTo(idle.email)).toMatchObject([{ status: 'pending', userId: idle.id }]);

    expect(await run(daysAfter(T0, 7), smtp)).toMatchObject({ revoked: 0 });
    expect(await run(daysAfter(T0, 8), smtp)).toMatchObject({ revoked: 0 });

    const back = await startSmtpCatcher(down.port);
    try {
      clock = daysAfter(T0, 8);
      expect(await smtp.deliverDue()).toMatchObject({ sent: 1 });
      await back.waitFor((mail) => mail.to === idle.email);
    } finally {
      await back.close();
    }
    expect(await run(daysAfter(T0, 14.9), smtp)).toMatchObject({ revoked: 0 });
    expect((await reload(idle)).revokedAt).toBeNull();
    expect(await run(daysAfter(T0, 15), smtp)).toMatchObject({ revoked: 1 });
    expect((await reload(idle)).revokedAt).toEqual(daysAfter(T0, 15));
  });

  it('never revokes on a warning that was given up', async () => {
    const refusing = await startSmtpCatcher(0, { refuse: () => true });
    try {
      const smtp = testMailer(database.db, { smtpUrl: refusing.url, now: () => clock });
      const unreachable = await account({ createdDaysAgo: 200 });
      await run(T0, smtp);
      clock = daysAfter(T0, 2);
      expect(await smtp.deliverDue()).toMatchObject({ failed: 1 });
      expect(await warningsTo(unreachable.email)).toMatchObject([{ status: 'failed' }]);
      expect(await run(daysAfter(T0, 30), smtp)).toMatchObject({ revoked: 0 });
      expect((await reload(unreachable)).revokedAt).toBeNull();
    } finally {
      await refusing.close();
    }
  });

  it.each([
    ['signed in after it', { lastLoginAt: daysAfter(T0, 2) }],
    ['got access without signing in', { expireAt: daysAfter(T0, 31) }],
  ])('cancels the warning of an account that %s', async (_, change) => {
    const warned = await account({ createdDaysAgo: 200 });
    await run(T0);
    await database.db.update(users).set(change).where(eq(users.id, warned.id));

    expect(await run(daysAfter(T0, 7))).toMatchObject({ revoked: 0, cleared: 1 });
    expect(await reload(warned)).toMatchObject({ inactiveWarnedAt: null, revokedAt: null });
  });

  it('records the last run in job_runs', async () => {
    await account({ createdDaysAgo: 200 });
    await run(T0);
    const later = daysAfter(T0, 7);
    await run(later);
    const row = await findJobRun(database.db, INACTIVE_ACCOUNTS_JOB);
    expect(row?.lastStartedAt).toEqual(later);
    expect(row?.lastFinishedAt?.getTime()).toBeGreaterThanOrEqual(later.getTime());
    expect(row?.lastResult).toEqual({ warned: 0, revoked: 1, cleared: 0, unmailed: 0, skipped: false });
  });

  it('warns more accounts than a batch holds a batch at a time, longest inactive first, each once', async () => {
    const inactive: UserRow[] = [];
    for (let days = 200; days < 225; days++) inactive.push(await account({ createdDaysAgo: days }));
    const batches: string[][] = [];
    const counting: Pick<Mailer, 'sendBatch'> = {
      sendBatch: (messages) => {
        batches.push(messages.map((message) => message.to));
        return mailer.sendBatch(messages);
      },
    };
    clock = T0;
    expect(
      await runInactiveAccounts({ db: database.db, mailer: counting, now: T0, batchSize: 10 }),
    ).toMatchObject({ warned: 25, unmailed: 0 });
    await mailer.idle();

    // Each batch holds the longest inactive of those left, in whatever order it was marked.
    const longestFirst = [...inactive].reverse().map((user) => user.email);
    expect(batches.map((batch) => [...batch].sort())).toEqual(
      [0, 10, 20].map((start) => longestFirst.slice(start, start + 10).sort()),
    );
    for (const user of inactive) {
      expect((await reload(user)).inactiveWarnedAt).toEqual(T0);
      expect(await warningsTo(user.email)).toMatchObject([{ status: 'logged', userId: user.id }]);
    }
    expect(await run(daysAfter(T0, 1))).toMatchObject({ warned: 0 });
  });

  it('takes back only the batch whose mails could not be written, and the next run warns it', async () => {
    const inactive: UserRow[] = [];
    for (let days = 200; days < 225; days++) inactive.push(await account({ createdDaysAgo: days }));
    let calls = 0;
    const failingSecond: Pick<Mailer, 'sendBatch'> = {
      sendBatch: (messages) => {
        calls += 1;
        return calls === 2 ? Promise.reject(new Error('outbox down')) : mailer.sendBatch(messages);
      },
    };
    clock = T0;
    expect(
      await runInactiveAccounts({ db: database.db, mailer: failingSecond, now: T0, batchSize: 10 }),
    ).toMatchObject({ warned: 10, unmailed: 10 });
    // The run stops there: the same accounts would only fail again.
    expect(calls).toBe(2);
    await mailer.idle();
    const marked = async () =>
      (await Promise.all(inactive.map(reload))).filter((user) => user.inactiveWarnedAt !== null).length;
    expect(await marked()).toBe(10);

    expect(await run(daysAfter(T0, 1))).toMatchObject({ warned: 15, unmailed: 0 });
    expect(await marked()).toBe(25);
    for (const user of inactive) expect(await warningsTo(user.email)).toHaveLength(1);
  });

  it('takes the warning back when its mail cannot be written, so the next run warns again', async () => {
    const unlucky = await account({ createdDaysAgo: 200 });
    const broken: Pick<Mailer, 'sendBatch'> = { sendBatch: () => Promise.reject(new Error('outbox down')) };
    expect(await runInactiveAccounts({ db: database.db, mailer: broken, now: T0 })).toMatchObject({
      warned: 0,
      unmailed: 1,
    });
    expect((await reload(unlucky)).inactiveWarnedAt).toBeNull();
    expect(await run(daysAfter(T0, 1))).toMatchObject({ warned: 1 });
  });
});

describe.runIf(testDatabaseKind === 'postgres')('the inactive-accounts job on several instances', () => {
  let instances: Awaited<ReturnType<typeof openTwoInstances>>;
  let first: DatabaseHandle;
  let second: DatabaseHandle;

  beforeAll(async () => {
    instances = await openTwoInstances();
    ({ first, second } = instances);
  });
  afterAll(() => instances?.close());

  it('warns each account once when two instances run at the same moment', async () => {
    const inactive = await Promise.all(
      Array.from({ length: 40 }, () => account({ createdDaysAgo: 200 }, first.db)),
    );
    const results = await Promise.all(
      [first, second].map((instance) =>
        runInactiveAccounts({
          db: instance.db,
          mailer: testMailer(instance.db, { now: () => clock }),
          now: T0,
        }),
      ),
    );
    expect(results.reduce((sum, result) => sum + result.warned, 0)).toBe(inactive.length);
    const mails = await first.db.select().from(mailOutbox);
    expect(mails).toHaveLength(inactive.length);
    expect(new Set(mails.map((mail) => mail.to)).size).toBe(inactive.length);
  });

  it('warns each account once when two instances take batches by turns', async () => {
    await first.db.delete(mailOutbox);
    await first.db.delete(users);
    const inactive = await Promise.all(
      Array.from({ length: 60 }, () => account({ createdDaysAgo: 200 }, first.db)),
    );
    const results = await Promise.all(
      [first, second].map((instance) =>
        runInactiveAccounts({
          db: instance.db,
          mailer: testMailer(instance.db, { now: () => clock }),
          now: T0,
          batchSize: 7,
        }),
      ),
    );
    expect(results.reduce((sum, result) => sum + result.warned, 0)).toBe(inactive.length);
    const mails = await first.db.select().from(mailOutbox);
    expect(mails).toHaveLength(inactive.length);
    expect(new Set(mails.map((mail) => mail.userId)).size).toBe(inactive.length);
  });

  it('does nothing, and says so, while another instance holds the lock', async () => {
    await account({ createdDaysAgo: 200 }, first.db);
    const holder = new pg.Client({ connectionString: instances.url });
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query('select pg_advisory_xact_lock($1)', [INACTIVE_ACCOUNTS_LOCK_ID]);
      expect(
        await runInactiveAccounts({
          db: second.db,
          mailer: testMailer(second.db, { now: () => clock }),
          now: T0,
        }),
      ).toEqual({
        warned: 0,
        revoked: 0,
        cleared: 0,
        unmailed: 0,
        skipped: true,
      });
      await holder.query('rollback');
    } finally {
      await holder.end();
    }
    expect(
      await runInactiveAccounts({
        db: second.db,
        mailer: testMailer(second.db, { now: () => clock }),
        now: T0,
      }),
    ).toMatchObject({
      warned: 1,
      skipped: false,
    });
  });
});
