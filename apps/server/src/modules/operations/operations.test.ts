import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditLog, jobRunLog, mailOutbox } from '../../db/schema/index.ts';
import { logJobRun } from './job-runs-repository.ts';
import { type SignedInStaff, signedInStaff } from '../../testing/staff.ts';
import { startTestApp, useTestApp } from '../../testing/test-app.ts';

describe('the outbox and the jobs in the back office', () => {
  const t = useTestApp({ MAIL_EVERY_SECONDS: '0' });
  let support: SignedInStaff;
  let admin: SignedInStaff;

  beforeAll(async () => {
    support = await signedInStaff(t.app, t.database, 'support');
    admin = await signedInStaff(t.app, t.database, 'admin');
  });

  const mail = async (values: Partial<typeof mailOutbox.$inferInsert>) => {
    const [row] = await t.database.db
      .insert(mailOutbox)
      .values({
        to: 'Someone@Example.com',
        template: 'password_changed',
        language: 'en',
        subject: 'Your password was changed',
        text: 'Body',
        html: '<p>Body</p>',
        ...values,
      })
      .returning();
    if (!row) throw new Error('no row');
    return row;
  };

  it('lists the outbox newest first, by status and by address, without bodies', async () => {
    const failed = await mail({ status: 'failed', error: '421 try later', attempts: 12 });
    await mail({ status: 'sent', to: 'other@example.com' });
    const byStatus = (await support.call('GET', '/mail?status=failed')).json().data;
    expect(byStatus.items.map((item: { id: string }) => item.id)).toContain(failed.id);
    expect(byStatus.items[0]).toMatchObject({ status: 'failed', error: '421 try later', attempts: 12 });
    expect(byStatus.items[0]).not.toHaveProperty('text');
    const byAddress = (await support.call('GET', '/mail?to=someone@example.com')).json().data;
    expect(byAddress.items.every((item: { to: string }) => item.to === 'Someone@Example.com')).toBe(true);
  });

  it('sends a failed message once more, audited; refuses one that did not fail or lost its body', async () => {
    const failed = await mail({ status: 'failed' });
    const reply = await support.call('POST', `/mail/${failed.id}/retry`);
    expect(reply.json().data).toMatchObject({ id: failed.id, status: 'pending' });
    const [row] = await t.database.db.select().from(auditLog).where(eq(auditLog.targetId, failed.id));
    expect(row).toMatchObject({ action: 'mail.retry', staffId: support.id });
    expect((await support.call('POST', `/mail/${failed.id}/retry`)).json()).toMatchObject({
      code: 409,
      data: { reason: 'mail_not_retryable' },
    });
    const codeMail = await mail({ status: 'failed', template: 'code_register', text: null, html: null });
    expect((await support.call('POST', `/mail/${codeMail.id}/retry`)).json().data.reason).toBe(
      'mail_not_retryable',
    );
    expect((await support.call('POST', '/mail/00000000-0000-4000-8000-000000000000/retry')).statusCode).toBe(
      404,
    );
  });

  it('cancels a waiting message, audited, so that no run sends it; refuses one sent or being delivered', async () => {
    const waiting = await mail({ status: 'pending', template: 'expiry_reminder', nextAttemptAt: new Date() });
    const reply = await support.call('POST', `/mail/${waiting.id}/cancel`);
    expect(reply.json().data).toMatchObject({ id: waiting.id, status: 'cancelled' });
    const [row] = await t.database.db.select().from(auditLog).where(eq(auditLog.targetId, waiting.id));
    expect(row).toMatchObject({ action: 'mail.cancel', staffId: support.id, after: { status: 'cancelled' } });
    const [kept] = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.id, waiting.id));
    expect(kept?.status).toBe('cancelled');

    const sent = await mail({ status: 'sent' });
    const delivering = await mail({ status: 'pending', leaseUntil: new Date(Date.now() + 60_000) });
    for (const other of [sent, delivering, waiting]) {
      expect((await support.call('POST', `/mail/${other.id}/cancel`)).json()).toMatchObject({
        code: 409,
        data: { reason: 'mail_not_cancellable' },
      });
    }
    expect((await support.call('POST', '/mail/00000000-0000-4000-8000-000000000000/cancel')).statusCode).toBe(
      404,
    );
  });

  it('shows each job’s latest runs, failures with their error, newest first', async () => {
    await logJobRun(t.database.db, {
      name: 'orders',
      startedAt: new Date(Date.now() - 2000),
      finishedAt: new Date(Date.now() - 1000),
      succeeded: true,
      result: { closed: 3 },
    });
    await logJobRun(t.database.db, {
      name: 'orders',
      startedAt: new Date(),
      finishedAt: new Date(),
      succeeded: false,
      error: 'Connection terminated',
    });
    const jobs = (await admin.call('GET', '/jobs')).json().data;
    expect(jobs.map((job: { name: string }) => job.name)).toEqual([
      'inactive-accounts',
      'mail',
      'expiry-reminders',
      'notice-mail',
      'orders',
      'dashboard',
      'alerts',
      'traffic-reconcile',
      'tickets',
    ]);
    const orders = jobs.find((job: { name: string }) => job.name === 'orders');
    expect(orders.runs).toMatchObject([
      { succeeded: false, error: 'Connection terminated' },
      { succeeded: true, result: { closed: 3 } },
    ]);
  });

  it('keeps the latest hundred or so runs of each job', async () => {
    const run = { name: 'many', startedAt: new Date(), finishedAt: new Date(), succeeded: true };
    for (let i = 0; i < 130; i++) await logJobRun(t.database.db, run);
    await logJobRun(t.database.db, { ...run, name: 'other' });
    const kept = await t.database.db.$count(jobRunLog, eq(jobRunLog.name, 'many'));
    expect(kept).toBeGreaterThanOrEqual(100);
    expect(kept).toBeLessThanOrEqual(110);
    expect(await t.database.db.$count(jobRunLog, eq(jobRunLog.name, 'other'))).toBe(1);
  });

  it('logs the runs of the app’s own jobs as they happen', async () => {
    const running = await startTestApp({ MAIL_EVERY_SECONDS: '1' });
    try {
      const owner = await signedInStaff(running.app, running.database, 'owner');
      await expect
        .poll(
          async () => {
            const jobs = (await owner.call('GET', '/jobs')).json().data as {
              name: string;
              runs: unknown[];
            }[];
            return jobs.find((job) => job.name === 'mail')?.runs.length ?? 0;
          },
          { timeout: 10_000, interval: 250 },
        )
        .toBeGreaterThan(0);
      const jobs = (await owner.call('GET', '/jobs')).json().data as {
        name: string;
        every_seconds: number;
      }[];
      expect(jobs.find((job) => job.name === 'mail')?.every_seconds).toBe(1);
    } finally {
      await running.close();
    }
  });
});
