import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { NODE_API_VERSION } from '@skyway/shared/schemas/node-api';
import { alertIncidents, mailOutbox, providerNotices } from '../../db/schema/index.ts';
import { addEpayGateway, TEST_SECRETS_KEY } from '../../testing/gateways.ts';
import { runAlertsAt } from '../../testing/alerts.ts';
import { type SignedInStaff, signedInStaff } from '../../testing/staff.ts';
import { later, newClientAddress, useTestApp } from '../../testing/test-app.ts';
import { testMailer } from '../../testing/test-mailer.ts';
import { logJobRun } from '../operations/job-runs-repository.ts';
import { epayNotifyPath } from '../payments/epay.ts';

const MINUTE = 60_000;

describe('staff alerts', () => {
  const t = useTestApp({ SECRETS_KEY: TEST_SECRETS_KEY });
  let admin: SignedInStaff;
  let support: SignedInStaff;
  beforeAll(async () => {
    admin = await signedInStaff(t.app, t.database, 'admin');
    support = await signedInStaff(t.app, t.database, 'support');
  });

  /** A node as the back office makes it, and its agent's status call (the node API). */
  async function node() {
    const name = `hk-${Math.random().toString(36).slice(2, 8)}`;
    const created = await admin.call('POST', '/nodes', { name, region: 'HK', host: 'n.example.com' });
    const id = created.json().data.id as string;
    const token = (await admin.call('POST', `/nodes/${id}/token`)).json().data.token as string;
    const report = () =>
      t.app.inject({
        method: 'POST',
        url: '/node/v1/status',
        payload: {
          load: [0.1, 0.1, 0.1],
          memory: { total: 1024, used: 100 },
          agent_version: '1.0.0',
          core: 'v2ray 4.34.0',
          uptime: 60,
        },
        headers: { authorization: `Bearer ${token}`, 'x-node-api': NODE_API_VERSION },
      });
    return { id, name, report };
  }

  const alertsTo = async (email: string) =>
    (
      await t.database.db
        .select()
        .from(mailOutbox)
        .where(and(eq(mailOutbox.template, 'staff_alert'), eq(mailOutbox.to, email)))
        .orderBy(mailOutbox.createdAt)
    ).map((mail) => mail.subject);

  it('alerts once when a node stops reporting and once when it comes back, with a link into the back office', async () => {
    const db = t.database.db;
    const mailer = testMailer(db);
    const silent = await node();
    const steady = await node();
    expect((await silent.report()).statusCode).toBe(200);
    const run = (at: number) => runAlertsAt(db, at, mailer);

    // Four minutes later: not yet.
    const start = Date.now();
    expect(await run(start + 4 * MINUTE)).toMatchObject({ opened: 0, closed: 0 });
    // The steady node keeps reporting; the other does not.
    await later(6 * 60, () => steady.report());
    expect(await run(start + 6 * MINUTE)).toMatchObject({ opened: 1, closed: 0 });
    // Still silent a minute later: the same incident, no second alert.
    expect(await run(start + 7 * MINUTE)).toMatchObject({ opened: 0, closed: 0 });
    await mailer.idle();
    expect(await alertsTo(admin.email)).toEqual([`Skyway alert: Node ${silent.name} is not reporting`]);
    // Owners and admins are alerted, not support.
    expect(await alertsTo(support.email)).toEqual([]);
    const [mail] = await db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.template, 'staff_alert'), eq(mailOutbox.to, admin.email)));
    expect(mail?.text).toContain('https://admin.example.com/admin/nodes');
    const open = await db.select().from(alertIncidents).where(eq(alertIncidents.subject, silent.id));
    expect(open).toMatchObject([{ kind: 'node_silent', closedAt: null }]);

    // Its agent reports again.
    expect((await later(8 * 60, () => silent.report())).statusCode).toBe(200);
    expect(await run(start + 8 * MINUTE + 1000)).toMatchObject({ opened: 0, closed: 1 });
    expect(await run(start + 9 * MINUTE)).toMatchObject({ opened: 0, closed: 0 });
    await mailer.idle();
    expect(await alertsTo(admin.email)).toEqual([
      `Skyway alert: Node ${silent.name} is not reporting`,
      `Skyway alert: Node ${silent.name} is reporting again`,
    ]);
    const closed = await db.select().from(alertIncidents).where(eq(alertIncidents.subject, silent.id));
    expect(closed[0]?.closedAt).not.toBeNull();
  });

  it('alerts once when a job fails twice in a row, and once when it runs again', async () => {
    const db = t.database.db;
    const mailer = testMailer(db);
    const run = () => runAlertsAt(db, Date.now(), mailer);
    const finished = (succeeded: boolean) =>
      logJobRun(db, {
        name: 'orders',
        startedAt: new Date(),
        finishedAt: new Date(),
        succeeded,
        ...(succeeded ? {} : { error: 'database away' }),
      });
    await finished(true);
    await finished(false);
    expect(await run()).toMatchObject({ opened: 0 });
    await finished(false);
    expect(await run()).toMatchObject({ opened: 1 });
    await finished(false);
    expect(await run()).toMatchObject({ opened: 0, closed: 0 });
    await finished(true);
    expect(await run()).toMatchObject({ opened: 0, closed: 1 });
    await mailer.idle();
    const subjects = (await alertsTo(admin.email)).filter((subject) => subject.includes('orders'));
    expect(subjects).toEqual([
      'Skyway alert: Job orders failed twice in a row',
      'Skyway alert: Job orders runs again',
    ]);
  });

  it('makes 1,000 forged notifies to a gateway one incident and one alert, ended 15 minutes after the last; the attention queue one more', async () => {
    const db = t.database.db;
    const mailer = testMailer(db);
    const owner = await signedInStaff(t.app, t.database, 'owner');
    const gatewayId = await addEpayGateway(owner, {
      url: 'https://epay.example.com',
      pid: '1001',
      key: 'k'.repeat(32),
    });
    let address = newClientAddress();
    for (let n = 0; n < 1000; n++) {
      // Past the per-address ceiling of notifies, as a spread-out attacker would be.
      if (n % 500 === 0) address = newClientAddress();
      const forged = await t.app.inject({
        method: 'POST',
        url: epayNotifyPath(gatewayId),
        remoteAddress: address,
        payload: new URLSearchParams({
          pid: '1001',
          trade_no: `T${n}`,
          out_trade_no: `forged-${n}`,
          money: '1.00',
          trade_status: 'TRADE_SUCCESS',
          sign: 'f'.repeat(32),
          sign_type: 'MD5',
        }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(forged.body).toBe('fail');
    }
    expect(await db.select().from(providerNotices)).toHaveLength(1000);
    const start = Date.now();
    const run = (at: number) => runAlertsAt(db, at, mailer);
    // The gateway, and the notices now waiting in the attention queue.
    expect(await run(start)).toMatchObject({ opened: 2, closed: 0 });
    // Nodes of the first test fall silent meanwhile: count this gateway's incidents alone.
    const incidents = () =>
      db.select().from(alertIncidents).where(eq(alertIncidents.kind, 'gateway_failing'));
    await run(start + MINUTE);
    await run(start + 14 * MINUTE);
    expect(await incidents()).toMatchObject([{ subject: `epay:${gatewayId}`, closedAt: null }]);
    await run(start + 16 * MINUTE);
    expect((await incidents())[0]?.closedAt).not.toBeNull();
    await mailer.idle();
    // The gateway by the names staff gave it, in English and Chinese.
    const provider = 'Alipay (Epay) / 支付宝（易支付）';
    const mails = await db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.template, 'staff_alert'), eq(mailOutbox.to, admin.email)));
    const about = (words: string) => mails.filter((mail) => mail.subject.includes(words));
    expect(about(provider).map((mail) => mail.subject)).toEqual([
      `Skyway alert: Gateway ${provider} notifies are refused`,
      `Skyway alert: Gateway ${provider} notifies: none refused for 15 minutes`,
    ]);
    expect(about(provider)[0]?.text).toContain('https://admin.example.com/admin/gateways');
    expect(about('Attention queue').map((mail) => mail.subject)).toEqual([
      'Skyway alert: Attention queue: 1000 provider notices waiting',
    ]);
    expect(about('Attention queue')[0]?.text).toContain('https://admin.example.com/admin/attention');

    // The queue emptied: its incident ends.
    await db.update(providerNotices).set({ resolvedAt: new Date(), resolution: 'forged' });
    await run(start + 17 * MINUTE);
    await mailer.idle();
    const ended = await db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.template, 'staff_alert'), eq(mailOutbox.to, admin.email)));
    expect(ended.map((mail) => mail.subject)).toContain(
      'Skyway alert: Attention queue: no provider notices waiting any more',
    );
  });
});
