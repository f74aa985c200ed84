import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../db/schema/index.ts';
import { type SmtpCatcher, startSmtpCatcher } from '../../testing/smtp-catcher.ts';
import { newClientAddress, useTestApp, webCaller } from '../../testing/test-app.ts';

const QUEUED = 10_000;

/**
 * PRODUCT.md section 7 and the mail-at-volume rule: a verification code never waits behind the
 * reminders and notices a job has queued. The real app, its own mail job working the queue every
 * second, a local SMTP server, and a code asked for through the site's call.
 */
describe('a code mail while 10,000 reminders are queued', () => {
  let smtp: SmtpCatcher;
  beforeAll(async () => {
    smtp = await startSmtpCatcher();
  });
  afterAll(() => smtp.close());
  const t = useTestApp(() => ({ SMTP_URL: smtp.url, MAIL_EVERY_SECONDS: '1' }));
  // What is still queued goes: the app's close waits for its delivery run to end.
  afterAll(async () => {
    await t.database.db.delete(mailOutbox);
  });
  const call = webCaller(() => t.app, newClientAddress);

  it('reaches the SMTP server in under 5 s, before nearly all of them', async () => {
    // As the reminders job leaves them: due now, priority 3, each with its unsubscribe link.
    await t.database.db.execute(sql`
      insert into ${mailOutbox} (${sql.identifier('to')}, template, language, subject, text, html,
        priority, status, next_attempt_at, unsubscribe_url)
      select 'reminded' || n || '@example.com', 'expiry_reminder', 'en', 'Reminder', 'text', '<p>html</p>',
        3, 'pending', now(), 'https://vpn.example.com/unsubscribe/x'
      from generate_series(1, ${QUEUED}) as n`);
    // The mail job has begun on the reminders.
    await smtp.waitFor((mail) => mail.to.startsWith('reminded'), 10_000);

    const started = Date.now();
    const email = `waiting-${Date.now()}@example.com`;
    const reply = await call('/web/login/verify_email', { email, scene: 'register' });
    expect(reply.json()).toMatchObject({ code: 200 });
    await smtp.waitFor((mail) => mail.to === email, 5_000);
    const seconds = (Date.now() - started) / 1000;
    const reminders = smtp.messages.filter((mail) => mail.to.startsWith('reminded')).length;
    console.log(
      `code mail at SMTP in ${seconds.toFixed(2)} s, ${reminders} of ${QUEUED} reminders delivered`,
    );
    expect(seconds).toBeLessThan(5);
    expect(reminders).toBeLessThan(QUEUED / 10);
  });
});
