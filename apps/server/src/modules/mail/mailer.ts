import type { Language } from '@skyway/shared/languages';
import type { FastifyBaseLogger } from 'fastify';
import { createTransport, type Transporter } from 'nodemailer';
import type { Database } from '../../db/client.ts';
import type { MailOutboxRow } from '../../db/schema/index.ts';
import { insertOutboxMail, markOutboxFailed, markOutboxSent } from './repository.ts';
import { type MailTemplate, renderMail } from './templates.ts';

export type { MailTemplate } from './templates.ts';

export interface MailMessage {
  to: string;
  template: MailTemplate;
  language: Language;
  params?: Record<string, string | number>;
}

export interface Mailer {
  /** Renders, writes the mail_outbox row, and queues SMTP delivery in the background (never awaits SMTP, so a reply's timing does not depend on mail). */
  send(message: MailMessage): Promise<void>;
  /** Resolves when every queued delivery has finished (tests and shutdown). */
  idle(): Promise<void>;
}

export interface MailerOptions {
  db: Database;
  /**
   * `smtp://` or `smtps://`, handed to nodemailer as is. Its query string holds nodemailer's own
   * transport options (nodemailer parses them), which is how a test server without working TLS is
   * reached: `smtp://127.0.0.1:2525?ignoreTLS=true`. Undefined: mail only goes to the log and outbox.
   */
  smtpUrl: string | undefined;
  from: string;
  siteName: string;
  supportEmail: string;
  log: FastifyBaseLogger;
}

/**
 * nodemailer waits up to 10 minutes on a silent socket; idle() at shutdown must not. The URL's own
 * query still wins over these.
 */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function createMailer(options: MailerOptions): Mailer {
  const { db, log } = options;
  const site = { siteName: options.siteName, supportEmail: options.supportEmail };
  const transport: Transporter | undefined = options.smtpUrl
    ? createTransport({ url: options.smtpUrl, ...SMTP_TIMEOUTS })
    : undefined;
  const pending = new Set<Promise<void>>();

  /** A failed status write must not surface as a delivery failure, nor escape into idle(). */
  async function record(row: MailOutboxRow, write: () => Promise<void>): Promise<void> {
    await write().catch((error: unknown) =>
      log.error({ err: error, mailId: row.id }, 'could not record a mail delivery status'),
    );
  }

  async function deliver(smtp: Transporter, row: MailOutboxRow): Promise<void> {
    const { from } = options;
    try {
      await smtp.sendMail({ from, to: row.to, subject: row.subject, text: row.text, html: row.html });
    } catch (error) {
      // The caller's reply has long gone: the outbox row and the log are where a failure shows.
      log.warn({ err: error, mailId: row.id, template: row.template }, 'mail delivery failed');
      return record(row, () => markOutboxFailed(db, row.id, errorText(error)));
    }
    log.info({ mailId: row.id, template: row.template }, 'mail sent');
    return record(row, () => markOutboxSent(db, row.id, new Date()));
  }

  function queue(smtp: Transporter, row: MailOutboxRow): void {
    const delivery = deliver(smtp, row).finally(() => pending.delete(delivery));
    pending.add(delivery);
  }

  return {
    async send(message) {
      const rendered = renderMail(message.template, message.language, message.params ?? {}, site);
      const row = await insertOutboxMail(db, {
        to: message.to,
        template: message.template,
        language: message.language,
        ...rendered,
      });
      if (transport) return queue(transport, row);
      // Without SMTP the log is how a developer reads a code locally, so the text goes in whole.
      log.info(
        { mailId: row.id, to: row.to, subject: row.subject, text: row.text },
        'mail not sent (no SMTP_URL): kept in the outbox',
      );
    },
    async idle() {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
  };
}
