import { eq } from 'drizzle-orm';
import Fastify from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Database, type DatabaseHandle, openDatabase } from '../db/client.ts';
import { jobRuns, mailOutbox, users, type UserRow } from '../db/schema/index.ts';
import { createMailer, type Mailer } from '../modules/mail/mailer.ts';
import { createUser } from '../modules/users/repository.ts';
import { createServerDatabase, openTestDatabase, testDatabaseKind } from '../testing/test-database.ts';
import { INACTIVE_ACCOUNTS_LOCK_ID } from './inactive-accounts-repository.ts';
import { INACTIVE_ACCOUNTS_JOB, runInactiveAccounts } from './inactive-accounts.ts';
import { findJobRun } from './job-runs.ts';

const DAY = 24 * 60 * 60 * 1000;
const T0 = new Date('2025-06-01T00:00:00Z');
const daysAfter = (date: Date, days: number) => new Date(date.getTime() + days * DAY);

let database: DatabaseHandle;
let mailer: Mailer;

function newMailer(db: Database): Mailer {
  const log = Fastify({ logger: false }).log;
  return createMailer({
    db,
    smtpUrl: undefined,
    from: 'a@b.test',
    siteName: 'Skyway',
    supportEmail: 's@b.test',
    log,
  });
}

beforeAll(async () => {
  database = await openTestDatabase();
  mailer = newMailer(database.db);
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

const run = (now: Date) => runInactiveAccounts({ db: database.db, mailer, now });
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

  it('cancels the warning of an account that signed in after it', async () => {
    const returning = await account({ createdDaysAgo: 200 });
    await run(T0);
    await database.db
      .update(users)
      .set({ lastLoginAt: daysAfter(T0, 2) })
      .where(eq(users.id, returning.id));

    expect(await run(daysAfter(T0, 7))).toMatchObject({ revoked: 0, cleared: 1 });
    expect(await reload(returning)).toMatchObject({ inactiveWarnedAt: null, revokedAt: null });
  });

  it('cancels the warning of an account that got access without signing in', async () => {
    const renewed = await account({ createdDaysAgo: 200 });
    await run(T0);
    await database.db
      .update(users)
      .set({ expireAt: daysAfter(T0, 31) })
      .where(eq(users.id, renewed.id));

    expect(await run(daysAfter(T0, 7))).toMatchObject({ revoked: 0, cleared: 1 });
    expect(await reload(renewed)).toMatchObject({ inactiveWarnedAt: null, revokedAt: null });
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

  it('takes the warning back when its mail cannot be written, so the next run warns again', async () => {
    const unlucky = await account({ createdDaysAgo: 200 });
    const broken: Mailer = {
      send: () => Promise.reject(new Error('outbox down')),
      idle: async () => undefined,
    };
    expect(await runInactiveAccounts({ db: database.db, mailer: broken, now: T0 })).toMatchObject({
      warned: 0,
      unmailed: 1,
    });
    expect((await reload(unlucky)).inactiveWarnedAt).toBeNull();
    expect(await run(daysAfter(T0, 1))).toMatchObject({ warned: 1 });
  });
});

describe.runIf(testDatabaseKind === 'postgres')('the inactive-accounts job on several instances', () => {
  let url: string;
  let drop: () => Promise<void>;
  let first: DatabaseHandle;
  let second: DatabaseHandle;

  beforeAll(async () => {
    ({ url, drop } = await createServerDatabase());
    first = await openDatabase({ databaseUrl: url, dataDir: 'memory://' });
    second = await openDatabase({ databaseUrl: url, dataDir: 'memory://' });
    await first.migrate();
  });
  afterAll(async () => {
    await first.close();
    await second.close();
    await drop();
  });

  it('warns each account once when two instances run at the same moment', async () => {
    const inactive = await Promise.all(
      Array.from({ length: 40 }, () => account({ createdDaysAgo: 200 }, first.db)),
    );
    const results = await Promise.all(
      [first, second].map((instance) =>
        runInactiveAccounts({ db: instance.db, mailer: newMailer(instance.db), now: T0 }),
      ),
    );
    expect(results.reduce((sum, result) => sum + result.warned, 0)).toBe(inactive.length);
    const mails = await first.db.select().from(mailOutbox);
    expect(mails).toHaveLength(inactive.length);
    expect(new Set(mails.map((mail) => mail.to)).size).toBe(inactive.length);
  });

  it('does nothing, and says so, while another instance holds the lock', async () => {
    await account({ createdDaysAgo: 200 }, first.db);
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query('select pg_advisory_xact_lock($1)', [INACTIVE_ACCOUNTS_LOCK_ID]);
      expect(await runInactiveAccounts({ db: second.db, mailer: newMailer(second.db), now: T0 })).toEqual({
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
    expect(await runInactiveAccounts({ db: second.db, mailer: newMailer(second.db), now: T0 })).toMatchObject(
      {
        warned: 1,
        skipped: false,
      },
    );
  });
});
