import type { FastifyBaseLogger } from 'fastify';
import { createTransport } from 'nodemailer';
import type { MailOutboxRow } from '../../db/schema/index.ts';
import { redactLinks } from '../../lib/log-redaction.ts';

/** Where a claimed message goes: an SMTP server, or (without one) the log. */
export interface MailTransport {
  /** What a message becomes once this transport took it. */
  delivered: 'sent' | 'logged';
  deliver(mail: MailOutboxRow): Promise<void>;
  /** Resolves when the server answers (connects, greets, logs in) without sending anything. */
  check(): Promise<void>;
  /** Ends the connections it keeps open; a delivery under way finishes first. */
  close(): void;
}

/**
 * nodemailer waits up to 10 minutes on a silent socket; idle() at shutdown must not, and an attempt
 * must end well within its lease. The URL's own query still wins over these.
 */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

/** At most this many connections to the server at once, each reused for this many messages. */
export const SMTP_POOL = { maxConnections: 5, maxMessages: 100 };

/**
 * Messages go over a pool of connections, so a queue of thousands opens at most `maxConnections`.
 * nodemailer would put a message whose connection closed back in the pool's queue (5 times by
 * default): the outbox retries with its own backoff and records every attempt, so a failure is
 * handed back at once.
 */
const POOLED = { pool: true, ...SMTP_POOL, maxRequeues: 0 } as const;

/**
 * `url` is `smtp://` or `smtps://`, handed to nodemailer as is. Its query string holds nodemailer's
 * own transport options, which is how a test server without working TLS is reached:
 * `smtp://127.0.0.1:2525?ignoreTLS=true`.
 */
export function smtpTransport(url: string, from: string, log: FastifyBaseLogger): MailTransport {
  const smtp = createTransport({ url, ...SMTP_TIMEOUTS, ...POOLED });
  return {
    delivered: 'sent',
    async deliver(mail) {
      // A pending row always has its body (a check constraint says so).
      await smtp.sendMail({
        from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text ?? '',
        html: mail.html ?? '',
        // One-click unsubscribe (RFC 8058): the mail client posts `List-Unsubscribe=One-Click` there.
        ...(mail.unsubscribeUrl
          ? {
              headers: {
                'List-Unsubscribe': `<${mail.unsubscribeUrl}>`,
                'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
              },
            }
          : {}),
      });
      log.info({ mailId: mail.id, template: mail.template }, 'mail sent');
    },
    async check() {
      await smtp.verify();
    },
    close() {
      smtp.close();
    },
  };
}

/**
 * Without SMTP the log is how a developer reads a code locally, so the text goes in with its codes
 * (short-lived, one attempt each); the tokens of its links (set-up, unsubscribe) are hidden, since a
 * link works for hours or for ever and a log is read by more people than the mail's recipient.
 */
export function logTransport(log: FastifyBaseLogger): MailTransport {
  return {
    delivered: 'logged',
    async deliver(mail) {
      log.info(
        { mailId: mail.id, to: mail.to, subject: mail.subject, text: mail.text && redactLinks(mail.text) },
        'mail not sent (no SMTP_URL): written to the log',
      );
    },
    async check() {},
    close() {},
  };
}

/**
 * True when the server was reached and refused this one message (its recipient or its content),
 * which says nothing about the next message. Anything else (no connection, a timeout, TLS, login)
 * means the server is not taking mail at all.
 */
export function refusedByServer(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'EENVELOPE' || code === 'EMESSAGE';
}
