import { createServer, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { eq } from 'drizzle-orm';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../db/client.ts';
import { mailOutbox, type MailOutboxRow } from '../../db/schema/index.ts';
import { type SmtpCatcher, startSmtpCatcher } from '../../testing/smtp-catcher.ts';
import { createServerDatabase, openTestDatabase, testDatabaseKind } from '../../testing/test-database.ts';
import {
  createMailer,
  type DeliveryEvent,
  type Mailer,
  type MailerOptions,
  type MailMessage,
  SEND_SPREAD_MS,
} from './mailer.ts';
import { mailBacklog } from './repository.ts';
import { SMTP_POOL } from './transports.ts';

const T0 = new Date('2025-06-01T00:00:00Z');
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const DAY = 24 * 60 * MINUTE;
const at = (ms: number) => new Date(T0.getTime() + ms);

let database: DatabaseHandle;
let catcher: SmtpCatcher;
const mailers: Mailer[] = [];
/** Servers a test started, closed after it. */
const servers: SmtpCatcher[] = [];

beforeAll(async () => {
  database = await openTestDatabase();
  catcher = await startSmtpCatcher();
});
afterEach(async () => {
  await Promise.all(mailers.splice(0).map((mailer) => mailer.close()));
  await Promise.all(servers.splice(0).map((server) => server.close()));
  await database.db.delete(mailOutbox);
  catcher.clear();
});
afterAll(async () => {
  await catcher.close();
  await database.close();
});

function silentLog(): FastifyBaseLogger {
  return Fastify({ logger: false }).log;
}

/** The time a mailer sees; a test moves it to cross backoffs, the retry window and code expiry. */
function testClock() {
  let current = T0;
  return { now: () => current, set: (date: Date) => void (current = date) };
}

function mailer(
  smtpUrl: string | undefined,
  options: Partial<Pick<MailerOptions, 'log' | 'now' | 'observe' | 'db'>> = {},
): Mailer {
  const created = createMailer({
    db: database.db,
    smtpUrl,
    from: 'Skyway <no-reply@skyway.test>',
    siteName: 'Skyway',
    supportEmail: 'help@skyway.test',
    log: silentLog(),
    ...options,
  });
  mailers.push(created);
  return created;
}

/** An SMTP server that is down: its address refuses connections until `restart()`. */
async function outage(): Promise<{ url: string; restart(): Promise<SmtpCatcher> }> {
  const server = await startSmtpCatcher();
  await server.close();
  return { url: server.url, restart: () => started(startSmtpCatcher(server.port)) };
}

async function started(server: Promise<SmtpCatcher>): Promise<SmtpCatcher> {
  servers.push(await server);
  return server;
}

async function outboxRowTo(to: string): Promise<MailOutboxRow> {
  const rows = await database.db.select().from(mailOutbox).where(eq(mailOutbox.to, to));
  expect(rows).toHaveLength(1);
  const [row] = rows;
  if (!row) throw new Error('unreachable');
  return row;
}

const codeMail = (to: string, code: string, sentAt = T0): MailMessage => ({
  to,
  template: 'code_forget',
  language: 'en',
  params: { code, minutes: 10 },
  codeExpiresAt: new Date(sentAt.getTime() + 10 * MINUTE),
});
const notice = (to: string): MailMessage => ({ to, template: 'password_changed', language: 'en' });
const warning = (to: string): MailMessage => ({
  to,
  template: 'inactive_warning',
  language: 'en',
  params: { revoke_date: '2025-06-08' },
});

describe('the mailer without SMTP', () => {
  it('logs the text so a developer can read the code, then marks it logged and keeps no code', async () => {
    const log = silentLog();
    const info = vi.spyOn(log, 'info');
    const local = mailer(undefined, { log });
    expect(local.state()).toBe('off');
    await local.send({
      to: 'dev@example.com',
      template: 'code_register',
      language: 'zh',
      params: { code: '314159', minutes: 10 },
      codeExpiresAt: new Date(Date.now() + 10 * MINUTE),
    });
    await local.idle();
    expect(info).toHaveBeenCalledWith(
      expect.objectContaining({
        to: 'dev@example.com',
        subject: 'Skyway 注册验证码',
        text: expect.stringContaining('314159'),
      }),
      expect.any(String),
    );
    const row = await outboxRowTo('dev@example.com');
    expect(row).toMatchObject({ template: 'code_register', language: 'zh', status: 'logged', attempts: 1 });
    expect(row.subject).toBe('Skyway 注册验证码');
    expect(row.sentAt).toBeInstanceOf(Date);
    expect(row.text).toBeNull();
    expect(row.html).toBeNull();
  });

  it('keeps the body of a message that holds no code', async () => {
    const local = mailer(undefined);
    await local.send(notice('kept@example.com'));
    await local.idle();
    const row = await outboxRowTo('kept@example.com');
    expect(row.status).toBe('logged');
    expect(row.text).toContain('password');
  });
});

describe('the mailer with SMTP', () => {
  it('delivers the real message in the right language, marks the row sent and keeps no code', async () => {
    const events: DeliveryEvent[] = [];
    const smtp = mailer(catcher.url, { observe: (event) => events.push(event) });
    await smtp.send({ ...codeMail('tw@example.com', '271828', new Date()), language: 'tw' });
    await smtp.idle();
    const mail = await catcher.waitFor((m) => m.to === 'tw@example.com');
    expect(mail.subject).toBe('Skyway 重設密碼驗證碼');
    expect(mail.text).toContain('271828');
    expect(mail.text).toContain('帳號');
    expect(mail.html).toContain('271828');
    const row = await outboxRowTo('tw@example.com');
    expect(row).toMatchObject({ status: 'sent', attempts: 1, error: null, text: null, html: null });
    expect(row.sentAt).toBeInstanceOf(Date);
    expect(JSON.stringify(row)).not.toContain('271828');
    expect(events).toEqual([{ outcome: 'sent', template: 'code_forget' }]);
    expect(smtp.state()).toBe('ok');
  });

  it('returns before SMTP has answered', async () => {
    // A server that accepts connections but never greets: delivery stays in flight until it hangs up.
    const sockets: Socket[] = [];
    const mute = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => mute.listen(0, '127.0.0.1', resolve));
    const address = mute.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const smtp = mailer(`smtp://127.0.0.1:${port}?ignoreTLS=true`);

    await smtp.send(notice('fast@example.com'));
    expect(await outboxRowTo('fast@example.com')).toMatchObject({
      status: 'pending',
      attempts: 0,
      error: null,
    });

    // The attempt starts within SEND_SPREAD_MS of the write.
    await vi.waitFor(() => expect(sockets).toHaveLength(1), { timeout: SEND_SPREAD_MS + 2 * SECOND });
    for (const socket of sockets) socket.destroy();
    await smtp.idle();
    await new Promise((resolve) => mute.close(resolve));
    expect(await outboxRowTo('fast@example.com')).toMatchObject({ status: 'pending', attempts: 1 });
  });

  it('delivers each message once, at a random moment within SEND_SPREAD_MS rather than right away', async () => {
    // Right after the write, the attempt's work fell on the next request: code requests taking
    // turns then told which addresses got a mail delivered, that is which have an account.
    const smtp = mailer(catcher.url);
    const delays: number[] = [];
    for (let i = 0; i < 20; i++) {
      const to = `spread${i}@example.com`;
      await smtp.send(codeMail(to, '314159', new Date()));
      const written = performance.now();
      await catcher.waitFor((mail) => mail.to === to);
      delays.push(performance.now() - written);
    }
    await smtp.idle();
    expect(catcher.messages).toHaveLength(20);
    delays.sort((a, b) => a - b);
    // Drawn evenly from 0 to 500 ms: fewer than half under 100 ms, all but a very unlucky draw.
    expect(delays[10]).toBeGreaterThan(SEND_SPREAD_MS / 5);
    expect(delays.at(-1)).toBeLessThan(SEND_SPREAD_MS + 2 * SECOND);
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

  it('writes a withheld message and never delivers it', async () => {
    const clock = testClock();
    const smtp = mailer(catcher.url, { now: clock.now });
    await smtp.send({ ...codeMail('nobody@example.com', '------'), withhold: true });
    await smtp.idle();
    clock.set(at(DAY));
    expect(await smtp.deliverDue()).toEqual({ sent: 0, retried: 0, failed: 0, expired: 0, outdated: 0 });
    expect(await outboxRowTo('nobody@example.com')).toMatchObject({
      status: 'withheld',
      subject: 'Your Skyway password reset code',
      attempts: 0,
      sentAt: null,
    });
    expect(catcher.messages).toEqual([]);
  });
});

describe('the mail queue', () => {
  it('keeps mail through an SMTP outage, then delivers each message once, codes first', async () => {
    const down = await outage();
    const clock = testClock();
    const log = silentLog();
    const warn = vi.spyOn(log, 'warn');
    const events: DeliveryEvent[] = [];
    const smtp = mailer(down.url, { now: clock.now, log, observe: (event) => events.push(event) });

    // Sent in the reverse of the order they must arrive in.
    await expect(smtp.send(warning('warned@example.com'))).resolves.toBeUndefined();
    await smtp.send(notice('noticed@example.com'));
    await smtp.send(codeMail('coded@example.com', '161803'));
    await smtp.idle();
    for (const to of ['warned@example.com', 'noticed@example.com', 'coded@example.com']) {
      const row = await outboxRowTo(to);
      expect(row).toMatchObject({ status: 'pending', attempts: 1, nextAttemptAt: at(15 * SECOND) });
      expect(row.error).toMatch(/ECONNREFUSED|connect/i);
    }
    expect(smtp.state()).toBe('degraded');
    expect(warn).toHaveBeenCalledTimes(3);
    expect(events.map((event) => event.outcome)).toEqual(['retry', 'retry', 'retry']);

    // Not due yet: nothing is tried.
    clock.set(at(10 * SECOND));
    expect(await smtp.deliverDue()).toMatchObject({ sent: 0, retried: 0 });

    // Due: one failed connection a run, the most urgent message first, then a longer wait.
    clock.set(at(15 * SECOND));
    expect(await smtp.deliverDue()).toMatchObject({ sent: 0, retried: 1 });
    expect(await outboxRowTo('coded@example.com')).toMatchObject({
      attempts: 2,
      nextAttemptAt: at(45 * SECOND),
    });
    expect(await outboxRowTo('noticed@example.com')).toMatchObject({ attempts: 1 });
    clock.set(at(16 * SECOND));
    expect(await smtp.deliverDue()).toMatchObject({ retried: 1 });
    clock.set(at(17 * SECOND));
    expect(await smtp.deliverDue()).toMatchObject({ retried: 1 });
    expect(await outboxRowTo('warned@example.com')).toMatchObject({
      attempts: 2,
      nextAttemptAt: at(47 * SECOND),
    });
    expect(await mailBacklog(database.db, clock.now())).toEqual({
      pending: 3,
      oldestPendingSeconds: 17,
      failed: 0,
    });

    // Nothing due, server still down: the run only checks it.
    clock.set(at(20 * SECOND));
    expect(await smtp.deliverDue()).toEqual({ sent: 0, retried: 0, failed: 0, expired: 0, outdated: 0 });

    // Back, while every message still waits its backoff: the next run finds out and sends them all.
    const back = await down.restart();
    clock.set(at(25 * SECOND));
    expect(await smtp.deliverDue()).toEqual({ sent: 3, retried: 0, failed: 0, expired: 0, outdated: 0 });
    expect(back.messages.map((mail) => mail.to)).toEqual([
      'coded@example.com',
      'noticed@example.com',
      'warned@example.com',
    ]);
    expect(back.messages[0]?.text).toContain('161803');
    expect(await outboxRowTo('coded@example.com')).toMatchObject({ status: 'sent', attempts: 3, text: null });
    expect(smtp.state()).toBe('ok');
    expect(await mailBacklog(database.db, clock.now())).toEqual({
      pending: 0,
      oldestPendingSeconds: 0,
      failed: 0,
    });

    // Nothing is sent twice, by a later run or by a late background attempt.
    clock.set(at(DAY));
    expect(await smtp.deliverDue()).toMatchObject({ sent: 0 });
    await smtp.idle();
    expect(back.messages).toHaveLength(3);
  });

  it('says ok again once SMTP answers, even when another instance sent what was waiting', async () => {
    const down = await outage();
    const clock = testClock();
    const failing = mailer(down.url, { now: clock.now });
    await failing.send(notice('waiting@example.com'));
    await failing.idle();
    expect(failing.state()).toBe('degraded');

    const back = await down.restart();
    clock.set(at(15 * SECOND));
    const other = mailer(down.url, { now: clock.now });
    expect(await other.deliverDue()).toMatchObject({ sent: 1 });
    // Nothing is left for the first one to send: its next run asks the server, which answers.
    expect(await failing.deliverDue()).toMatchObject({ sent: 0 });
    expect(failing.state()).toBe('ok');
    expect(back.messages).toHaveLength(1);
  });

  it('brings waiting mail forward when a new message gets through', async () => {
    const down = await outage();
    const clock = testClock();
    const smtp = mailer(down.url, { now: clock.now });
    await smtp.send(notice('waiting@example.com'));
    await smtp.idle();
    expect(await outboxRowTo('waiting@example.com')).toMatchObject({ nextAttemptAt: at(15 * SECOND) });

    const back = await down.restart();
    clock.set(at(2 * SECOND));
    await smtp.send(notice('fresh@example.com'));
    await smtp.idle();
    expect(await outboxRowTo('waiting@example.com')).toMatchObject({ nextAttemptAt: at(2 * SECOND) });
    expect(await smtp.deliverDue()).toMatchObject({ sent: 1 });
    expect(back.messages.map((mail) => mail.to).sort()).toEqual(['fresh@example.com', 'waiting@example.com']);
  });

  it('lets a message the server refuses wait out its own backoff, whatever else gets through', async () => {
    const picky = await started(startSmtpCatcher(0, { refuse: (to) => to.startsWith('bounce') }));
    const clock = testClock();
    const smtp = mailer(picky.url, { now: clock.now });
    await smtp.send(notice('bounce@example.com'));
    await smtp.idle();
    const refused = await outboxRowTo('bounce@example.com');
    expect(refused).toMatchObject({ status: 'pending', attempts: 1, nextAttemptAt: at(15 * SECOND) });
    expect(refused.error).toMatch(/550|no mailbox/);

    clock.set(at(SECOND));
    await smtp.send(notice('fine@example.com'));
    await smtp.idle();
    expect(await outboxRowTo('bounce@example.com')).toMatchObject({ nextAttemptAt: at(15 * SECOND) });
    expect(await smtp.deliverDue()).toMatchObject({ sent: 0, retried: 0 });
    expect(picky.messages.map((mail) => mail.to)).toEqual(['fine@example.com']);
  });

  it('gives a message up after two days of failures, logs it as an error and never tries it again', async () => {
    const down = await outage();
    const clock = testClock();
    const log = silentLog();
    const error = vi.spyOn(log, 'error');
    const events: DeliveryEvent[] = [];
    const smtp = mailer(down.url, { now: clock.now, log, observe: (event) => events.push(event) });
    await smtp.send(notice('lost@example.com'));
    await smtp.idle();

    clock.set(at(DAY));
    expect(await smtp.deliverDue()).toMatchObject({ retried: 1, failed: 0 });
    clock.set(at(2 * DAY));
    expect(await smtp.deliverDue()).toMatchObject({ retried: 0, failed: 1 });
    const row = await outboxRowTo('lost@example.com');
    expect(row).toMatchObject({ status: 'failed', attempts: 3 });
    expect(row.error).toMatch(/ECONNREFUSED|connect/i);
    expect(error).toHaveBeenCalledOnce();
    expect(events.at(-1)).toEqual({ outcome: 'failed', template: 'password_changed' });
    expect(await mailBacklog(database.db, clock.now())).toEqual({
      pending: 0,
      oldestPendingSeconds: 0,
      failed: 1,
    });

    const back = await down.restart();
    clock.set(at(3 * DAY));
    await smtp.send(notice('later@example.com'));
    await smtp.idle();
    expect(await smtp.deliverDue()).toMatchObject({ sent: 0 });
    expect(back.messages.map((mail) => mail.to)).toEqual(['later@example.com']);
    expect((await outboxRowTo('lost@example.com')).status).toBe('failed');
  });

  it('does not deliver a code mail once its code has expired, and drops the code', async () => {
    const down = await outage();
    const clock = testClock();
    const smtp = mailer(down.url, { now: clock.now });
    await smtp.send(codeMail('late@example.com', '424242'));
    await smtp.idle();
    expect((await outboxRowTo('late@example.com')).text).toContain('424242');

    const back = await down.restart();
    clock.set(at(10 * MINUTE));
    expect(await smtp.deliverDue()).toEqual({ sent: 0, retried: 0, failed: 0, expired: 1, outdated: 0 });
    const row = await outboxRowTo('late@example.com');
    expect(row).toMatchObject({ status: 'expired', text: null, html: null, sentAt: null });
    expect(JSON.stringify(row)).not.toContain('424242');
    expect(back.messages).toEqual([]);
  });
});

describe('lists of mail', () => {
  const warnings = (count: number, prefix: string) =>
    Array.from({ length: count }, (_, i) => warning(`${prefix}${i}@example.com`));

  it('writes a list in one statement, then delivers each message once over a few pooled connections', async () => {
    const server = await started(startSmtpCatcher());
    const smtp = mailer(server.url);
    const list = warnings(300, 'listed');
    const insert = vi.spyOn(database.db, 'insert');
    const execute = vi.spyOn(database.db, 'execute');
    try {
      await smtp.sendBatch(list);
      expect(insert.mock.calls.length + execute.mock.calls.length).toBe(1);
    } finally {
      insert.mockRestore();
      execute.mockRestore();
    }
    await smtp.idle();

    expect(server.messages.map((mail) => mail.to).sort()).toEqual(list.map((mail) => mail.to).sort());
    const rows = await database.db.select().from(mailOutbox);
    expect(rows.filter((row) => row.status === 'sent')).toHaveLength(list.length);
    const { mostAtOnce, total } = server.connections();
    expect(mostAtOnce).toBeGreaterThan(1);
    expect(mostAtOnce).toBeLessThanOrEqual(SMTP_POOL.maxConnections);
    // Each connection carries up to maxMessages: a connection per message would make 300.
    expect(total).toBeLessThanOrEqual(
      2 * Math.ceil(list.length / SMTP_POOL.maxMessages) + SMTP_POOL.maxConnections,
    );
  });

  it('writes a list longer than one statement could carry as a parameter per value', async () => {
    const smtp = mailer(catcher.url);
    // Withheld: written, never delivered, so that only the write is measured.
    await smtp.sendBatch(warnings(6000, 'many').map((mail) => ({ ...mail, withhold: true })));
    const rows = await database.db.select({ to: mailOutbox.to, status: mailOutbox.status }).from(mailOutbox);
    expect(rows).toHaveLength(6000);
    expect(new Set(rows.map((row) => row.status))).toEqual(new Set(['withheld']));
  });

  it('delivers a code mail sent while a long list waits before most of the list', async () => {
    const server = await started(startSmtpCatcher());
    const smtp = mailer(server.url);
    // Long enough that the list is far from done when the code mail's own attempt starts, at most
    // SEND_SPREAD_MS after its send, however fast this machine delivers.
    const list = warnings(1200, 'waiting');
    await smtp.sendBatch(list);
    await smtp.send(codeMail('urgent@example.com', '777777', new Date()));
    await server.waitFor((mail) => mail.to === 'urgent@example.com');
    const position = server.messages.findIndex((mail) => mail.to === 'urgent@example.com');
    expect(position).toBeLessThan(list.length / 4);
    await smtp.idle();
    expect(server.received()).toBe(list.length + 1);
  });

  it('takes turns between runs, so that lists always leave a connection free for code mails', async () => {
    const server = await started(startSmtpCatcher());
    const smtp = mailer(server.url);
    const lists = [warnings(40, 'first'), warnings(40, 'second'), warnings(40, 'third')];
    await Promise.all([smtp.deliverDue(), ...lists.map((list) => smtp.sendBatch(list)), smtp.deliverDue()]);
    await smtp.idle();
    expect(server.received()).toBe(lists.flat().length);
    expect(server.connections().mostAtOnce).toBeLessThan(SMTP_POOL.maxConnections);
  });

  it('close() waits for the queue, then ends the connections it kept open', async () => {
    const server = await started(startSmtpCatcher());
    const smtp = mailer(server.url);
    await smtp.sendBatch(warnings(20, 'closing'));
    await smtp.close();
    expect(server.received()).toBe(20);
    await vi.waitFor(() => expect(server.connections().open).toBe(0));
  });
});

describe.runIf(testDatabaseKind === 'postgres')('the mail queue on several instances', () => {
  let url: string;
  let drop: () => Promise<void>;
  let instances: DatabaseHandle[];

  beforeAll(async () => {
    ({ url, drop } = await createServerDatabase());
    instances = [
      await openDatabase({ databaseUrl: url, dataDir: 'memory://' }),
      await openDatabase({ databaseUrl: url, dataDir: 'memory://' }),
    ];
    await instances[0]?.migrate();
  });
  afterAll(async () => {
    await Promise.all(mailers.splice(0).map((mailer) => mailer.idle()));
    for (const instance of instances) await instance.close();
    await drop();
  });

  const recipients = (count: number, prefix: string) =>
    Array.from({ length: count }, (_, i) => `${prefix}${i}@example.com`);
  const each = (smtpUrl: string, clock: ReturnType<typeof testClock>) =>
    instances.map((instance) => mailer(smtpUrl, { db: instance.db, now: clock.now }));

  it('delivers each waiting message once when two runs race', async () => {
    const down = await outage();
    const clock = testClock();
    const [first] = each(down.url, clock);
    const waiting = recipients(40, 'queued');
    for (const to of waiting) await first?.send(notice(to));
    await first?.idle();

    const back = await down.restart();
    clock.set(at(MINUTE));
    const results = await Promise.all(each(back.url, clock).map((instance) => instance.deliverDue()));
    expect(results.reduce((sum, result) => sum + result.sent, 0)).toBe(waiting.length);
    expect(back.messages.map((mail) => mail.to).sort()).toEqual([...waiting].sort());
  });

  it('never lets a run take a message that its writer is still delivering', async () => {
    const clock = testClock();
    const [writer, job] = each(catcher.url, clock);
    const fresh = recipients(30, 'fresh');
    let writing = true;
    const racing = (async () => {
      let taken = 0;
      while (writing) taken += (await job?.deliverDue())?.sent ?? 0;
      return taken;
    })();
    for (const to of fresh) await writer?.send(notice(to));
    await writer?.idle();
    writing = false;
    expect(await racing).toBe(0);
    expect(catcher.messages.map((mail) => mail.to).sort()).toEqual([...fresh].sort());
  });
});
