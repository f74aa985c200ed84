import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/client.ts';
import { waitUntil } from '../../testing/poll.ts';
import { withDatabase } from '../../testing/server-databases.ts';
import { testDatabaseKind } from '../../testing/test-database.ts';
import {
  newClientAddress,
  signedInUser,
  startTestApp,
  type TestApp,
  webCaller,
} from '../../testing/test-app.ts';

/** How soon another instance's change must show: PostgreSQL announces it at commit. */
const HEARD_WITHIN_MS = 1_000;
const LISTENERS = `select pid from pg_stat_activity
  where datname = current_database() and application_name = 'skyway account changes' and query ilike 'select 1%'
     or datname = current_database() and application_name = 'skyway account changes' and query ilike 'listen%'`;

// Signed-in lookups are kept in memory only on PostgreSQL, where other instances and tools write.
describe.runIf(testDatabaseKind === 'postgres')('signed-in lookups kept in memory', () => {
  /** Two instances on one database, as in production. */
  let first: TestApp;
  let second: TestApp;
  /** A connection of its own, as an operator's SQL or a tool would be. */
  let byHand: pg.Client;
  const callFirst = webCaller(() => first.app, newClientAddress);
  const callSecond = webCaller(() => second.app, newClientAddress);

  const listeners = async () =>
    new Set(((await byHand.query<{ pid: number }>(LISTENERS)).rows ?? []).map((row) => row.pid));

  beforeAll(async () => {
    first = await startTestApp();
    const result = await first.database.db.execute(sql`select current_database() as name`);
    const name = (result as unknown as { rows: { name: string }[] }).rows[0]?.name ?? '';
    const url = withDatabase(process.env.TEST_DATABASE_URL as string, name);
    byHand = new pg.Client({ connectionString: url });
    await byHand.connect();
    second = await startTestApp(
      {},
      undefined,
      await openDatabase({ databaseUrl: url, dataDir: 'memory://' }),
    );
    await waitUntil(
      'both instances to listen',
      async () => ((await listeners()).size === 2 ? true : undefined),
      {
        timeoutMs: 5_000,
      },
    );
  });
  afterAll(async () => {
    await byHand.end();
    await second.close();
    await first.close();
  });

  /** Signs a user in and has the second instance read it twice, so that it keeps the lookup. */
  async function readBySecond() {
    const signedIn = await signedInUser(first.database);
    for (let i = 0; i < 2; i++)
      expect((await callSecond('/web/user/info', {}, signedIn.token)).statusCode).toBe(200);
    return signedIn;
  }

  /** Polls the second instance's user/info until `done` holds of it; fails after HEARD_WITHIN_MS. */
  const secondSees = (
    what: string,
    token: string,
    done: (res: Awaited<ReturnType<typeof callSecond>>) => boolean,
  ) =>
    waitUntil(
      what,
      async () => {
        const res = await callSecond('/web/user/info', {}, token);
        return done(res) ? res : undefined;
      },
      { timeoutMs: HEARD_WITHIN_MS, intervalMs: 5 },
    );

  it('refuses a session signed out on the same instance on its very next call', async () => {
    for (let i = 0; i < 10; i++) {
      const { token } = await readBySecond();
      expect((await callSecond('/web/login/out', {}, token)).statusCode).toBe(200);
      expect((await callSecond('/web/user/info', {}, token)).statusCode).toBe(401);
    }
  });

  it('refuses a session signed out on another instance', async () => {
    const { token } = await readBySecond();
    expect((await callFirst('/web/login/out', {}, token)).statusCode).toBe(200);
    await secondSees('the signed-out session to be refused', token, (res) => res.statusCode === 401);
  });

  it('shows time and a revocation written by hand', async () => {
    const { user, token } = await readBySecond();
    const expireUser = 2_000_000_000;
    await byHand.query('update users set expire_at = to_timestamp($1) where id = $2', [expireUser, user.id]);
    await secondSees('the new expiry', token, (res) => res.json().data.expire_user === expireUser);
    await byHand.query('update users set revoked_at = now() where id = $1', [user.id]);
    await secondSees('the revoked account to be refused', token, (res) => res.statusCode === 403);
  });

  it('drops every lookup when one statement changes more than a hundred accounts', async () => {
    const { user, token } = await readBySecond();
    const others = await Promise.all(Array.from({ length: 100 }, () => signedInUser(first.database)));
    const expireUser = 2_000_000_100;
    await byHand.query('update users set expire_at = to_timestamp($1) where id = any($2::uuid[])', [
      expireUser,
      [user.id, ...others.map((other) => other.user.id)],
    ]);
    await secondSees('the new expiry', token, (res) => res.json().data.expire_user === expireUser);
  });

  it('never serves what changed while it could not hear, and hears again once back', async () => {
    const { user, token } = await readBySecond();
    const before = await listeners();
    // Both instances lose their listening connection, and a change commits meanwhile, unheard.
    await byHand.query('select pg_terminate_backend(pid) from pg_stat_activity where pid = any($1::int[])', [
      [...before],
    ]);
    await byHand.query('update users set expire_at = to_timestamp($1) where id = $2', [
      2_000_000_200,
      user.id,
    ]);
    await waitUntil(
      'both instances to listen again',
      async () => {
        const now = await listeners();
        return now.size === 2 && [...now].every((pid) => !before.has(pid)) ? true : undefined;
      },
      { timeoutMs: 5_000 },
    );
    for (let i = 0; i < 2; i++)
      expect((await callSecond('/web/user/info', {}, token)).json().data.expire_user).toBe(2_000_000_200);
    await byHand.query('update users set expire_at = to_timestamp($1) where id = $2', [
      2_000_000_300,
      user.id,
    ]);
    await secondSees(
      'the expiry changed after the return',
      token,
      (res) => res.json().data.expire_user === 2_000_000_300,
    );
  });
});
