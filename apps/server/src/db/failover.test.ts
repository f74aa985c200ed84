import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitUntil } from '../testing/poll.ts';
import { startTcpProxy } from '../testing/tcp-proxy.ts';
import { testDatabaseKind } from '../testing/test-database.ts';
import { openDatabase } from './client.ts';
import { newClientAddress, signedInUser, startTestApp, useTestApp, webCaller } from '../testing/test-app.ts';

// Terminating backends only means something on the PostgreSQL server.
describe.runIf(testDatabaseKind === 'postgres')('a database failover under traffic', () => {
  const t = useTestApp();
  let admin: pg.Client;
  let databaseName: string;
  const call = webCaller(() => t.app, newClientAddress);

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    const result = await t.database.db.execute(sql`select current_database() as name`);
    databaseName = (result as unknown as { rows: { name: string }[] }).rows[0]?.name ?? '';
  });
  afterAll(() => admin.end());

  const terminateBackends = () =>
    admin.query(
      'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
      [databaseName],
    );

  it('answers 503 envelopes while connections die, never crashes, and recovers at once', async () => {
    const users = await Promise.all(Array.from({ length: 6 }, () => signedInUser(t.database)));
    const replies: { statusCode: number; body: { code: number; data: { reason?: string } } }[] = [];
    const traffic = (async () => {
      for (let round = 0; round < 15; round++) {
        const batch = await Promise.all(
          users.flatMap(({ token }) => [
            call('/web/user/info', {}, token),
            // A transaction: the trial claim locks the user and writes the ledger.
            call('/web/invite/claim', {}, token),
          ]),
        );
        replies.push(...batch.map((res) => ({ statusCode: res.statusCode, body: res.json() })));
      }
    })();
    for (let i = 0; i < 5; i++) {
      await terminateBackends();
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
    await traffic;

    for (const reply of replies) {
      expect(reply.body.code).toBe(reply.statusCode);
      if (reply.statusCode === 503) expect(reply.body.data.reason).toBe('service_unavailable');
      else expect([200, 409]).toContain(reply.statusCode);
    }

    // Every connection that broke went back to the pool discarded: it serves as many as it has.
    for (let i = 0; i < 25; i++) {
      const { token } = users[i % users.length] ?? { token: '' };
      expect((await call('/web/user/info', {}, token)).statusCode).toBe(200);
    }
    expect(t.database.poolStats()?.waiting).toBe(0);
    // The failures were real, and none of them doubled a trial.
    expect(replies.filter((reply) => reply.statusCode === 503).length).toBeGreaterThan(0);
    const doubled = await t.database.db.execute(
      sql`select user_id from expiry_ledger group by user_id having count(*) > 1`,
    );
    expect((doubled as unknown as { rows: unknown[] }).rows).toEqual([]);
  });

  it('says unavailable in the envelope while the server cannot be reached, and recovers', async () => {
    const url = new URL(process.env.TEST_DATABASE_URL as string);
    url.pathname = `/${databaseName}`;
    const proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) }, 'pass');
    url.host = `127.0.0.1:${proxy.port}`;
    const viaProxy = await openDatabase({ databaseUrl: url.toString(), dataDir: 'memory://' });
    const app = await startTestApp({}, undefined, viaProxy);
    const callThrough = webCaller(() => app.app, newClientAddress);
    try {
      const { token } = await signedInUser(t.database);
      expect((await callThrough('/web/user/info', {}, token)).statusCode).toBe(200);
      await proxy.refuse();
      const expectUnavailable = (res: Awaited<ReturnType<typeof callThrough>>) => {
        expect(res.statusCode).toBe(503);
        expect(res.headers['retry-after']).toBe('2');
        expect(res.json()).toMatchObject({ code: 503, data: { reason: 'service_unavailable' } });
      };
      // A call that reads the database beyond the signed-in lookup says so at once.
      expectUnavailable(await callThrough('/web/order/list', { page: 1, size: 10 }, token));
      // The signed-in lookup is kept in memory only while changes to accounts are heard: once the
      // lost connection is noticed, user/info says so too; until then it answers what it knew.
      const statuses: number[] = [];
      const { value: unavailable } = await waitUntil(
        'user/info to say the database is unavailable',
        async () => {
          const res = await callThrough('/web/user/info', {}, token);
          statuses.push(res.statusCode);
          return res.statusCode === 503 ? res : undefined;
        },
        { timeoutMs: 3_000, intervalMs: 10 },
      );
      expect(statuses.filter((status) => status !== 200 && status !== 503)).toEqual([]);
      expectUnavailable(unavailable);
      expect((await app.app.inject({ method: 'GET', url: '/healthz' })).json()).toMatchObject({
        status: 'unavailable',
        dependencies: { database: 'down' },
      });
      await proxy.pass();
      expect((await callThrough('/web/user/info', {}, token)).statusCode).toBe(200);
    } finally {
      await app.close();
      await proxy.close();
    }
  });
});
