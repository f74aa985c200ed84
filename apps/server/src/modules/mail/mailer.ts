import type { Language } from '@skyway/shared/languages';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.ts';
import type { MailOutboxRow } from '../../db/schema/index.ts';
import { LEASE_MS, MAIL_PRIORITY, RETRY_WINDOW_MS, retryDelayMs } from './queue-policy.ts';
import {
  claimDueMail,
  expireCodeMails,
  hasDueMail,
  insertOutboxMail,
  makePendingDue,
  recordDelivered,
  recordFailedAttempt,
} from './repository.ts';
import { type MailTemplate, renderMail } from './templates.ts';
import { logTransport, type MailTransport, refusedByServer, smtpTransport } from './transports.ts';

export type { MailTemplate } from './templates.ts';

/** The scheduled run of `deliverDue`: retries, and code mails whose code ran out. */
export const MAIL_JOB = 'mail';

export interface MailMessage {
  to: string;
  template: MailTemplate;
  language: Language;
  params?: Record<string, string | number>;
  /** The account the message is about, where a job must know whether it arrived. */
  userId?: string;
  /** A code mail's code expiry: it is not delivered past it, and its body is dropped once delivered or expired. */
  codeExpiresAt?: Date;
  /**
   * Written but never delivered: it stands where a code mail would be, so that a request for an
   * address that gets nothing writes what one that gets a mail writes. Its body is kept as rendered,
   * so it must carry no secret (a withheld code mail shows a masked code).
   */
  withhold?: boolean;
}

/** `off`: no SMTP_URL (mail goes to the log); `degraded`: the latest delivery attempt failed. */
export type MailerState = 'ok' | 'degraded' | 'off';

export interface DeliveryEvent {
  /** `retry`: this attempt failed and another will follow; `failed`: given up for good. */
  outcome: 'sent' | 'retry' | 'failed';
  template: string;
}

export interface MailRunResult {
  sent: number;
  retried: number;
  failed: number;
  /** Code mails whose code ran out before they could be delivered. */
  expired: number;
}

export interface Mailer {
  /**
   * Renders and writes the outbox row, then attempts delivery in the background: never awaits SMTP,
   * so a reply's timing does not depend on mail, nor on whether a mail goes out at all.
   */
  send(message: MailMessage): Promise<void>;
  /** One run of the retry job: delivers every due message, most urgent first. */
  deliverDue(): Promise<MailRunResult>;
  state(): MailerState;
  /** Resolves when every background delivery has finished (tests and shutdown). */
  idle(): Promise<void>;
}

export interface MailerOptions {
  db: Database;
  /** Undefined: messages are delivered to the log. See `smtpTransport` for the URL. */
  smtpUrl: string | undefined;
  from: string;
  siteName: string;
  supportEmail: string;
  log: FastifyBaseLogger;
  /** Told of every delivery attempt (metrics). */
  observe?: (event: DeliveryEvent) => void;
  /** The time; tests move it to cross backoffs, the retry window and code expiry. */
  now?: () => Date;
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));
const after = (date: Date, ms: number) => new Date(date.getTime() + ms);
/** Lets the caller's reply go out before any delivery work (rendering MIME, logging) starts. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export function createMailer(options: MailerOptions): Mailer {
  const { db, log, observe } = options;
  const clock = options.now ?? (() => new Date());
  const site = { siteName: options.siteName, supportEmail: options.supportEmail };
  const transport: MailTransport = options.smtpUrl
    ? smtpTransport(options.smtpUrl, options.from, log)
    : logTransport(log);
  const inFlight = new Set<Promise<unknown>>();
  let latestFailed = false;
  // Set when an attempt could not reach the server at all (not when it refused one message), and
  // cleared by the next success, which then makes every waiting message due.
  let serverUnreachable = false;

  /** A failed status write must not surface as a delivery failure, nor escape into idle(). */
  async function record(row: MailOutboxRow, write: () => Promise<unknown>): Promise<void> {
    await write().catch((error: unknown) =>
      log.error({ err: error, mailId: row.id }, 'could not record a mail delivery status'),
    );
  }

  async function serverIsBack(now: Date): Promise<void> {
    serverUnreachable = false;
    // Answering a probe is enough: another instance may have sent everything that was waiting.
    latestFailed = false;
    try {
      const due = await makePendingDue(db, now);
      log.info({ due }, 'SMTP takes mail again: every waiting message is due');
    } catch (error) {
      log.error({ err: error }, 'could not bring waiting mail forward');
    }
  }

  async function failed(row: MailOutboxRow, error: unknown): Promise<DeliveryEvent['outcome']> {
    const now = clock();
    latestFailed = true;
    if (!refusedByServer(error)) serverUnreachable = true;
    const attempts = row.attempts + 1;
    const giveUp = now.getTime() - row.createdAt.getTime() >= RETRY_WINDOW_MS;
    await record(row, () =>
      recordFailedAttempt(db, row.id, {
        error: errorText(error),
        retryAt: after(now, retryDelayMs(attempts)),
        giveUp,
      }),
    );
    const context = { err: error, mailId: row.id, template: row.template, attempts };
    // The caller's reply has long gone: the outbox row and the log are where a failure shows.
    if (giveUp) log.error(context, 'mail given up: it failed for the whole retry window');
    else log.warn(context, 'mail delivery failed: it will be retried');
    return giveUp ? 'failed' : 'retry';
  }

  async function delivered(row: MailOutboxRow): Promise<'sent'> {
    latestFailed = false;
    const now = clock();
    await record(row, () => recordDelivered(db, row, { status: transport.delivered, at: now }));
    if (serverUnreachable) await serverIsBack(now);
    return 'sent';
  }

  /** Delivers a row this instance has claimed, and records how it went. */
  async function attempt(row: MailOutboxRow): Promise<DeliveryEvent['outcome']> {
    const outcome = await transport.deliver(row).then(
      () => delivered(row),
      (error: unknown) => failed(row, error),
    );
    observe?.({ outcome, template: row.template });
    return outcome;
  }

  function inBackground(work: Promise<unknown>): void {
    const settled = work
      .catch((error: unknown) => log.error({ err: error }, 'background mail delivery failed'))
      .finally(() => inFlight.delete(settled));
    inFlight.add(settled);
  }

  /** While the server was unreachable and nothing is due, asks it whether it is back (no message sent). */
  async function serverAnswers(): Promise<boolean> {
    try {
      await transport.check();
      return true;
    } catch (error) {
      log.warn({ err: error }, 'SMTP still does not take mail');
      return false;
    }
  }

  return {
    async send(message) {
      const now = clock();
      const rendered = renderMail(message.template, message.language, message.params ?? {}, site);
      const withheld = message.withhold === true;
      const row = await insertOutboxMail(db, {
        to: message.to,
        template: message.template,
        language: message.language,
        subject: rendered.subject,
        text: rendered.text,
        html: rendered.html,
        userId: message.userId,
        priority: MAIL_PRIORITY[message.template],
        status: withheld ? 'withheld' : 'pending',
        codeExpiresAt: message.codeExpiresAt,
        createdAt: now,
        // Claimed from birth by this instance for its immediate attempt, so the job leaves it alone.
        leaseUntil: withheld ? null : after(now, LEASE_MS),
      });
      if (!withheld) inBackground(nextTurn().then(() => attempt(row)));
    },

    async deliverDue() {
      const result: MailRunResult = { sent: 0, retried: 0, failed: 0, expired: 0 };
      const start = clock();
      result.expired = await expireCodeMails(db, start);
      if (serverUnreachable && !(await hasDueMail(db, start))) {
        // Every waiting message may be deep in its backoff: without this, a server that came back
        // would be noticed only when the next one is due.
        if (!(await serverAnswers())) return result;
        await serverIsBack(start);
      }
      for (;;) {
        const now = clock();
        const row = await claimDueMail(db, now, after(now, LEASE_MS));
        if (!row) break;
        const outcome = await attempt(row);
        if (outcome === 'sent') result.sent += 1;
        else if (outcome === 'retry') result.retried += 1;
        else result.failed += 1;
        // One failed connection a run while the server is away, however long the queue.
        if (outcome !== 'sent' && serverUnreachable) break;
      }
      return result;
    },

    state() {
      if (!options.smtpUrl) return 'off';
      return latestFailed ? 'degraded' : 'ok';
    },

    async idle() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}
