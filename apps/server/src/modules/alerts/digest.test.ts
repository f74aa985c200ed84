import { and, eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.ts';
import { mailOutbox } from '../../db/schema/index.ts';
import { runAlertsAt } from '../../testing/alerts.ts';
import { type SignedInStaff, signedInStaff } from '../../testing/staff.ts';
import { testDatabaseKind } from '../../testing/test-database.ts';
import { useTestApp, useTwoTestApps } from '../../testing/test-app.ts';
import { logJobRun } from '../operations/job-runs-repository.ts';

const DAY = 24 * 60 * 60_000;
/** The next half a minute past 09:00 UTC+8 (01:00 UTC): after any choice a test makes now. */
const digestTime = () => {
  const now = new Date();
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), 1, 0, 30);
  return today > now.getTime() ? today : today + DAY;
};

const run = (db: Database, at: number) => runAlertsAt(db, at);

const mailsTo = (db: Database, email: string, templates: ('staff_alert' | 'staff_digest')[]) =>
  db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.to, email), inArray(mailOutbox.template, templates)));

const failTwice = async (db: Database, name: string) => {
  for (let n = 0; n < 2; n++)
    await logJobRun(db, { name, startedAt: new Date(), finishedAt: new Date(), succeeded: false });
};

const chooseDigest = async (member: SignedInStaff, kinds: string[]) =>
  expect(
    (await member.call('POST', '/me/alerts', { channel: 'mail', kinds, delivery: 'digest' })).statusCode,
  ).toBe(200);

describe('the daily digest', () => {
  const t = useTestApp();

  it('comes once a day at 09:00 UTC+8 in place of each alert, telling the kinds chosen; nothing to tell, nothing sent', async () => {
    const db = t.database.db;
    const digest = await signedInStaff(t.app, t.database, 'support');
    const quiet = await signedInStaff(t.app, t.database, 'finance');
    await chooseDigest(digest, ['job_failing']);
    await chooseDigest(quiet, ['node_silent']);
    await failTwice(db, 'traffic-reconcile');
    // The incident opens now, and the digest waits for 09:00.
    expect(await run(db, Date.now())).toMatchObject({ opened: 1, digests: 0 });
    const at = digestTime();
    expect(await run(db, at)).toMatchObject({ digests: 1 });
    expect(await run(db, at + 60_000)).toMatchObject({ digests: 0 });
    expect(await run(db, at + DAY - 60_000)).toMatchObject({ digests: 0 });
    const [mail, ...more] = await mailsTo(db, digest.email, ['staff_alert', 'staff_digest']);
    expect(more).toEqual([]);
    expect(mail?.template).toBe('staff_digest');
    expect(mail?.subject).toMatch(/^Skyway daily digest, \d{4}-\d\d-\d\d$/);
    expect(mail?.text).toContain('Opened in the last 24 hours');
    expect(mail?.text).toContain('Still open');
    expect(mail?.text).toContain('Job traffic-reconcile failed twice in a row');
    expect(mail?.text).toMatch(/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \(UTC\+8\)/);
    expect(mail?.text).toContain('https://admin.example.com/admin/jobs');
    expect(await mailsTo(db, quiet.email, ['staff_alert', 'staff_digest'])).toEqual([]);
    // The next day's.
    expect(await run(db, at + DAY)).toMatchObject({ digests: 1 });
  });
});

describe.runIf(testDatabaseKind === 'postgres')('the daily digest with two instances', () => {
  const two = useTwoTestApps();
  let member: SignedInStaff;
  beforeAll(async () => {
    member = await signedInStaff(two.first.app, two.first.database, 'viewer');
  });

  it('goes once to each member however many instances run the job at once', async () => {
    const { first, second } = two;
    await chooseDigest(member, ['job_failing']);
    await failTwice(first.database.db, 'orders');
    const at = digestTime();
    const runs = await Promise.all([run(first.database.db, at), run(second.database.db, at)]);
    expect(runs.map((each) => each.digests).sort()).toEqual([0, 1]);
    const again = await Promise.all([run(first.database.db, at + 1000), run(second.database.db, at + 1000)]);
    expect(again.map((each) => each.digests)).toEqual([0, 0]);
    expect(await mailsTo(first.database.db, member.email, ['staff_digest'])).toHaveLength(1);
  });
});
