import { createServer, type Socket } from 'node:net';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DatabaseHandle } from '../../db/client.ts';
import { mailOutbox, type MailOutboxRow } from '../../db/schema/index.ts';
import { type SmtpCatcher, startSmtpCatcher } from '../../testing/smtp-catcher.ts';
import { openTestDatabase } from '../../testing/test-database.ts';
import { createMailer, type Mailer } from './mailer.ts';

let database: DatabaseHandle;
let catcher: SmtpCatcher;
const mailers: Mailer[] = [];

beforeAll(async () => {
  database = await openTestDatabase();
  catcher = await startSmtpCatcher();
});
afterAll(async () => {
  await Promise.all(mailers.map((mailer) => mailer.idle()));
  await catcher.close();
  await database.close();
});

function silentLog(): FastifyBaseLogger {
  return Fastify({ logger: false }).log;
}

function mailer(smtpUrl: string | undefined, log = silentLog()): Mailer {
  const created = createMailer({
    db: database.db,
    smtpUrl,
    from: 'Skyway <no-reply@skyway.test>',
    siteName: 'Skyway',
    supportEmail: 'help@skyway.test',
    log,
  });
  mailers.push(created);
  return created;
}

async function outboxRowTo(to: string): Promise<MailOutboxRow> {
  const rows = (await database.db.select().from(mailOutbox)).filter((row) => row.to === to);
  expect(rows).toHaveLength(1);
  const [row] = rows;
  if (!row) throw new Error('unreachable');
  return row;
}

describe('the mailer without SMTP', () => {
  it('writes the outbox row, leaves it unsent and logs the text so a developer can read the code', async () => {
    const log = silentLog();
    const info = vi.spyOn(log, 'info');
    await mailer(undefined, log).send({
      to: 'dev@example.com',
      template: 'code_register',
      language: 'zh',
      params: { code: '314159', minutes: 10 },
    });
    const row = await outboxRowTo('dev@example.com');
    expect(row).toMatchObject({ template: 'code_register', language: 'zh', sentAt: null, error: null });
    expect(row.subject).toBe('Skyway 注册验证码');
    expect(row.text).toContain('314159');
    expect(row.html).toContain('314159');
    expect(info).toHaveBeenCalledWith(
      expect.objectContaining({ to: 'dev@example.com', subject: row.subject, text: row.text }),
      expect.any(String),
    );
  });
});

describe('the mailer with SMTP', () => {
  it('delivers the real message in the right language and marks the row sent', async () => {
    const smtp = mailer(catcher.url);
    await smtp.send({
      to: 'tw@example.com',
      template: 'code_forget',
      language: 'tw',
      params: { code: '271828', minutes: 10 },
    });
    await smtp.idle();
    const mail = await catcher.waitFor((m) => m.to === 'tw@example.com');
    expect(mail.subject).toBe('Skyway 重設密碼驗證碼');
    expect(mail.text).toContain('271828');
    expect(mail.text).toContain('帳號');
    expect(mail.html).toContain('271828');
    const row = await outboxRowTo('tw@example.com');
    expect(row.sentAt).toBeInstanceOf(Date);
    expect(row.error).toBeNull();
  });

  it('returns before SMTP has answered', async () => {
    // A server that accepts connections but never greets: delivery stays in flight until it hangs up.
    const sockets: Socket[] = [];
    const mute = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => mute.listen(0, '127.0.0.1', resolve));
    const address = mute.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const smtp = mailer(`smtp://127.0.0.1:${port}?ignoreTLS=true`);

    await smtp.send({ to: 'fast@example.com', template: 'password_changed', language: 'en' });
    expect(await outboxRowTo('fast@example.com')).toMatchObject({ sentAt: null, error: null });

    await vi.waitFor(() => expect(sockets).toHaveLength(1));
    for (const socket of sockets) socket.destroy();
    await smtp.idle();
    await new Promise((resolve) => mute.close(resolve));
    expect((await outboxRowTo('fast@example.com')).error).not.toBeNull();
  });

  it('sends escaped params in the HTML part', async () => {
    const smtp = mailer(catcher.url);
    await smtp.send({
      to: 'old@example.com',
      template: 'email_changed',
      language: 'en',
      params: { new_email: '<img src=x onerror=alert(1)>@example.com' },
    });
    await smtp.idle();
    const mail = await catcher.waitFor((m) => m.to === 'old@example.com');
    expect(mail.html).not.toContain('<img');
    expect(mail.html).toContain('&lt;img src=x onerror=alert(1)&gt;@example.com');
    expect(mail.text).toContain('<img src=x onerror=alert(1)>@example.com');
  });

  it('records the error when SMTP is down, logs a warning, and send() still resolves', async () => {
    const down = await startSmtpCatcher();
    await down.close();
    const log = silentLog();
    const warn = vi.spyOn(log, 'warn');
    const smtp = mailer(down.url, log);
    await expect(
      smtp.send({ to: 'lost@example.com', template: 'account_exists', language: 'en' }),
    ).resolves.toBeUndefined();
    await smtp.idle();
    const row = await outboxRowTo('lost@example.com');
    expect(row.sentAt).toBeNull();
    expect(row.error).toMatch(/ECONNREFUSED|connect/i);
    expect(warn).toHaveBeenCalledOnce();
  });
});
