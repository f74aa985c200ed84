import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditLog, mailOutbox, telegramOutbox, telegramStaffLinks } from '../../db/schema/index.ts';
import { runAlertsAt } from '../../testing/alerts.ts';
import { type SignedInStaff, signedInStaff } from '../../testing/staff.ts';
import { useTestApp } from '../../testing/test-app.ts';
import { testMailer } from '../../testing/test-mailer.ts';
import { logJobRun } from '../operations/job-runs-repository.ts';

describe('my alerts', () => {
  const t = useTestApp();
  let admin: SignedInStaff;
  let support: SignedInStaff;
  let finance: SignedInStaff;
  let viewer: SignedInStaff;
  beforeAll(async () => {
    admin = await signedInStaff(t.app, t.database, 'admin');
    support = await signedInStaff(t.app, t.database, 'support');
    finance = await signedInStaff(t.app, t.database, 'finance');
    viewer = await signedInStaff(t.app, t.database, 'viewer');
  });

  const audits = (staffId: string) =>
    t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'alerts.preferences_set'), eq(auditLog.targetId, staffId)));

  it("starts from the role's defaults: owners and admins every kind by mail at once, other roles none", async () => {
    expect((await admin.call('GET', '/me/alerts')).json().data).toEqual({
      channel: 'mail',
      kinds: ['node_silent', 'mail_stuck', 'telegram_stuck', 'job_failing', 'attention', 'gateway_failing'],
      delivery: 'at_once',
      telegram: { available: false, bound: false, bound_at: null, bot_username: null },
    });
    expect((await viewer.call('GET', '/me/alerts')).json().data).toMatchObject({ kinds: [] });
  });

  it("lets a member set only their own: another member's, bad input and Telegram while unbound change nothing", async () => {
    const adminBefore = (await admin.call('GET', '/me/alerts')).json().data;
    const aimed = await support.call('POST', '/me/alerts', {
      staff_id: admin.id,
      channel: 'mail',
      kinds: [],
      delivery: 'digest',
    });
    expect(aimed.statusCode).toBe(400);
    expect(aimed.json().data.reason).toEqual(expect.any(String));
    const unknownKind = await support.call('POST', '/me/alerts', {
      channel: 'mail',
      kinds: ['everything'],
      delivery: 'at_once',
    });
    expect(unknownKind.statusCode).toBe(400);
    const unbound = await support.call('POST', '/me/alerts', {
      channel: 'telegram',
      kinds: ['job_failing'],
      delivery: 'at_once',
    });
    expect(unbound.statusCode).toBe(409);
    expect(unbound.json()).toMatchObject({
      msg: 'Your account is not bound to Telegram',
      data: { reason: 'telegram_not_bound' },
    });
    expect((await admin.call('GET', '/me/alerts')).json().data).toEqual(adminBefore);
    expect((await support.call('GET', '/me/alerts')).json().data).toMatchObject({ kinds: [] });
    expect(await audits(admin.id)).toEqual([]);
    expect(await audits(support.id)).toEqual([]);
  });

  it('sends each member only the kinds they chose, on the channel they chose, and by mail once their chat is unbound', async () => {
    const db = t.database.db;
    const mailer = testMailer(db);
    const chat = 880_001;
    await db.insert(telegramStaffLinks).values({ staffId: finance.id, chatId: chat });
    const chose = await support.call('POST', '/me/alerts', {
      channel: 'mail',
      kinds: ['job_failing'],
      delivery: 'at_once',
    });
    expect(chose.json().data).toMatchObject({ channel: 'mail', kinds: ['job_failing'] });
    expect(await audits(support.id)).toMatchObject([
      { before: { kinds: [] }, after: { kinds: ['job_failing'] } },
    ]);
    const byTelegram = await finance.call('POST', '/me/alerts', {
      channel: 'telegram',
      kinds: ['job_failing'],
      delivery: 'at_once',
    });
    expect(byTelegram.json().data).toMatchObject({ channel: 'telegram', telegram: { bound: true } });
    // The admin keeps every kind but nodes, by mail.
    await admin.call('POST', '/me/alerts', {
      channel: 'mail',
      kinds: ['mail_stuck'],
      delivery: 'at_once',
    });

    const run = () => runAlertsAt(db, Date.now(), mailer);
    const finished = (succeeded: boolean) =>
      logJobRun(db, { name: 'tickets', startedAt: new Date(), finishedAt: new Date(), succeeded });
    await finished(false);
    await finished(false);
    expect(await run()).toMatchObject({ opened: 1 });
    await mailer.idle();
    const mailTo = async (email: string) =>
      (
        await db
          .select()
          .from(mailOutbox)
          .where(and(eq(mailOutbox.template, 'staff_alert'), eq(mailOutbox.to, email)))
      ).map((mail) => mail.subject);
    expect(await mailTo(support.email)).toEqual(['Skyway alert: Job tickets failed twice in a row']);
    expect(await mailTo(finance.email)).toEqual([]);
    expect(await mailTo(admin.email)).toEqual([]);
    expect(await mailTo(viewer.email)).toEqual([]);
    const queued = await db.select().from(telegramOutbox).where(eq(telegramOutbox.chatId, chat));
    expect(queued).toMatchObject([{ kind: 'staff_alert', priority: 1, userId: null, status: 'pending' }]);
    expect(queued[0]?.text).toContain('Job tickets failed twice in a row');
    expect(queued[0]?.text).toContain('https://admin.example.com/admin/jobs');

    // The chat goes: the pending alert is cancelled, and the next one comes by mail.
    const unbound = await finance.call('POST', '/me/alerts/telegram/unbind', {});
    expect(unbound.json().data).toMatchObject({ channel: 'telegram', telegram: { bound: false } });
    const cancelled = await db.select().from(telegramOutbox).where(eq(telegramOutbox.chatId, chat));
    expect(cancelled.map((row) => row.status)).toEqual(['cancelled']);
    const unbindAudit = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'alerts.telegram_unbind'), eq(auditLog.targetId, finance.id)));
    expect(unbindAudit).toHaveLength(1);
    await finished(true);
    expect(await run()).toMatchObject({ closed: 1 });
    await mailer.idle();
    expect(await mailTo(finance.email)).toEqual(['Skyway alert: Job tickets runs again']);
    expect(await db.select().from(telegramOutbox).where(eq(telegramOutbox.chatId, chat))).toHaveLength(1);
  });

  it('sends a disabled member nothing', async () => {
    const db = t.database.db;
    const mailer = testMailer(db);
    const owner = await signedInStaff(t.app, t.database, 'owner');
    const disabled = await signedInStaff(t.app, t.database, 'admin');
    expect((await owner.call('PATCH', `/staff/${disabled.id}`, { disabled: true })).statusCode).toBe(200);
    const finished = () =>
      logJobRun(db, { name: 'dashboard', startedAt: new Date(), finishedAt: new Date(), succeeded: false });
    await finished();
    await finished();
    await runAlertsAt(db, Date.now(), mailer);
    await mailer.idle();
    const to = (email: string) =>
      db
        .select()
        .from(mailOutbox)
        .where(and(eq(mailOutbox.template, 'staff_alert'), eq(mailOutbox.to, email)));
    expect(await to(owner.email)).toHaveLength(1);
    expect(await to(disabled.email)).toEqual([]);
  });
});
