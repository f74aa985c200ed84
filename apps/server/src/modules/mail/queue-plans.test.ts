import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.ts';
import { migrateServer } from '../../db/migrate.ts';
import { mailOutbox } from '../../db/schema/index.ts';
import { describeNode, nodesOf, planRecordingDatabase } from '../../testing/query-plans.ts';
import { createServerDatabase, testDatabaseKind } from '../../testing/test-database.ts';
import { cancelOutdatedReminders, claimDueMail } from './repository.ts';

const BACKLOG = 30_000;

/**
 * The mail queue after an outage: SMTP came back, and every waiting message is due at one moment.
 * Each claim of a delivery run must then read the few rows it takes, not sort the whole backlog
 * (45 ms a claim of four with 30,000 waiting: six minutes more for the lot, growing with the square
 * of the backlog), and the reminders' "still true" check must look at the claimed rows only.
 */
describe.runIf(testDatabaseKind === 'postgres')('the mail queue with a backlog due at once', () => {
  let scratch: Awaited<ReturnType<typeof createServerDatabase>>;
  let recording: ReturnType<typeof planRecordingDatabase>;
  let db: Database;
  const now = new Date();

  beforeAll(async () => {
    scratch = await createServerDatabase();
    await migrateServer(scratch.url);
    recording = planRecordingDatabase(scratch.url);
    db = recording.db;
    const { pool } = recording;
    // As the reminders job leaves them (priority 3, each about its account's end), made due at one
    // moment by SMTP's return.
    await pool.query(
      `insert into users (email, password_hash, invite_code, expire_at)
       select 'reminded' || n || '@example.com', 'x', 'code' || n, $1::timestamptz
       from generate_series(1, ${BACKLOG}) as n`,
      [new Date(now.getTime() + 3 * 86_400_000)],
    );
    await pool.query(
      `insert into mail_outbox ("to", template, language, subject, text, html, priority, status,
         next_attempt_at, user_id, about_end, unsubscribe_url)
       select email, 'expiry_reminder', 'en', 'Reminder', 'text', '<p>html</p>', 3, 'pending',
         $1::timestamptz, id, expire_at, 'https://vpn.example.com/unsubscribe/x'
       from users`,
      [new Date(now.getTime() - 60_000)],
    );
    await pool.query('analyze');
  }, 120_000);
  afterAll(async () => {
    await recording?.pool.end();
    await scratch?.drop();
  });

  it('claims a few messages off the queue index in their order, without sorting or scanning the backlog', async () => {
    const lease = new Date(now.getTime() + 60_000);
    const nodes = (await recording.plansOf((db) => claimDueMail(db, now, lease, 4))).flatMap(nodesOf);
    const described = nodes.map(describeNode);
    expect(described, described.join(' / ')).toContain('Index Scan mail_outbox mail_outbox_queue_idx');
    expect(
      nodes.filter((node) => node['Node Type'].endsWith('Sort') || node['Node Type'] === 'Seq Scan'),
      described.join(' / '),
    ).toEqual([]);
  });

  it('checks the claimed reminders against their accounts, and cancels those whose end has moved', async () => {
    const claimed = await claimDueMail(db, now, new Date(now.getTime() + 60_000), 4);
    expect(claimed).toHaveLength(4);
    const [renewed] = claimed;
    await db.execute(
      sql`update users set expire_at = expire_at + interval '30 days' where id = ${renewed?.userId}`,
    );
    const plans = await recording.plansOf(async (db) =>
      expect(await cancelOutdatedReminders(db, claimed)).toEqual(new Set([renewed?.id])),
    );
    const scans = plans.flatMap(nodesOf).filter((node) => node['Node Type'] === 'Seq Scan');
    expect(scans.map(describeNode)).toEqual([]);
    const [{ pending } = { pending: -1 }] = (
      await recording.pool.query<{ pending: number }>(
        `select count(*)::int as pending from mail_outbox where status = 'pending'`,
      )
    ).rows;
    expect(pending).toBe(BACKLOG - 1);
    expect(
      (
        await db
          .select({ status: mailOutbox.status })
          .from(mailOutbox)
          .where(sql`id = ${renewed?.id}`)
      )[0],
    ).toEqual({ status: 'cancelled' });
  });
});
