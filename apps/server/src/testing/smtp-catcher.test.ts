import { createServer } from 'node:net';
import { createTransport } from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { codeIn, type SmtpCatcher, startSmtpCatcher } from './smtp-catcher.ts';

let catcher: SmtpCatcher;

beforeAll(async () => {
  catcher = await startSmtpCatcher();
});
afterAll(() => catcher.close());

function freePort(): Promise<number> {
  const probe = createServer();
  return new Promise((resolve) =>
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    }),
  );
}

const send = (to: string, subject: string, text: string, html?: string) =>
  createTransport(catcher.url).sendMail({ from: 'Site <no-reply@example.com>', to, subject, text, html });

describe('the test SMTP server', () => {
  it('listens on 127.0.0.1 and gives a URL that nodemailer delivers to without TLS', () => {
    expect(catcher.port).toBeGreaterThan(0);
    expect(catcher.url).toBe(`smtp://127.0.0.1:${catcher.port}?ignoreTLS=true`);
  });

  it('keeps each message parsed: recipient, subject, text, HTML and headers', async () => {
    await send(
      'alice@example.com',
      '验证码',
      'Your code:\n\n    042917\n',
      '<p>Your code: <b>042917</b></p>',
    );
    const mail = await catcher.waitFor((m) => m.to === 'alice@example.com');
    expect(mail).toMatchObject({
      to: 'alice@example.com',
      subject: '验证码',
      text: 'Your code:\n\n    042917\n',
      html: '<p>Your code: <b>042917</b></p>',
    });
    expect(mail.headers.subject).toBe('=?UTF-8?B?6aqM6K+B56CB?=');
    expect(codeIn(mail)).toBe('042917');
  });

  it('waits for a message that has not arrived yet', async () => {
    const waiting = catcher.waitFor((m) => m.subject === 'later');
    await send('bob@example.com', 'later', 'no code here');
    await expect(waiting).resolves.toMatchObject({ to: 'bob@example.com', html: '' });
  });

  it('gives up after the timeout, naming what it did catch', async () => {
    await expect(catcher.waitFor((m) => m.subject === 'never', 50)).rejects.toThrow(
      /no matching mail.*later/,
    );
  });

  it('refuses to invent a code', () => {
    expect(() =>
      codeIn({ to: 'a@example.com', subject: 's', text: 'call 12345 or 1234567', html: '', headers: {} }),
    ).toThrow(/no 6-digit code/);
  });

  it('forgets everything on clear(), but still counts what it received', async () => {
    expect(catcher.messages.length).toBeGreaterThan(0);
    const received = catcher.received();
    expect(received).toBe(catcher.messages.length);
    catcher.clear();
    expect(catcher.messages).toEqual([]);
    expect(catcher.received()).toBe(received);
  });

  it('with keep: false, counts messages without keeping them', async () => {
    const counting = await startSmtpCatcher(0, { keep: false });
    try {
      const smtp = createTransport(counting.url);
      for (const to of ['a@example.com', 'b@example.com']) {
        await smtp.sendMail({ from: 'x@example.com', to, subject: 's', text: 't' });
      }
      expect(counting.received()).toBe(2);
      expect(counting.messages).toEqual([]);
    } finally {
      await counting.close();
    }
  });

  it('counts the connections open now, the most that were open at once, and all it accepted', async () => {
    const counted = await startSmtpCatcher();
    const pooled = createTransport({ url: counted.url, pool: true, maxConnections: 3 });
    try {
      const to = Array.from({ length: 9 }, (_, i) => `pooled${i}@example.com`);
      await Promise.all(
        to.map((address) => pooled.sendMail({ from: 'x@example.com', to: address, text: 't' })),
      );
      expect(counted.received()).toBe(to.length);
      expect(counted.connections()).toEqual({ open: 3, mostAtOnce: 3, total: 3 });
      pooled.close();
      await vi.waitFor(() => expect(counted.connections().open).toBe(0));
      await createTransport(counted.url).sendMail({
        from: 'x@example.com',
        to: 'one@example.com',
        text: 't',
      });
      expect(counted.connections()).toMatchObject({ mostAtOnce: 3, total: 4 });
    } finally {
      await counted.close();
    }
  });

  it('closes at once when clients have left, and soon while a pooled client keeps its connection', async () => {
    const idle = await startSmtpCatcher();
    const pooled = createTransport({ url: idle.url, pool: true });
    await pooled.sendMail({ from: 'x@example.com', to: 'kept@example.com', text: 't' });
    expect(idle.connections().open).toBe(1);
    const started = performance.now();
    await idle.close();
    expect(performance.now() - started).toBeLessThan(1000);
    pooled.close();
  });

  it('listens on a given port', async () => {
    const port = await freePort();
    const other = await startSmtpCatcher(port);
    try {
      expect(other.port).toBe(port);
    } finally {
      await other.close();
    }
  });
});
