import { randomInt } from 'node:crypto';
import type { Language } from '@skyway/shared/languages';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.ts';
import type { MailOutboxRow } from '../../db/schema/index.ts';
import { LEASE_MS, MAIL_PRIORITY, RETRY_WINDOW_MS, retryDelayMs } from './queue-policy.ts';
import {
  cancelOutdatedReminders,
  claimDueMail,
  expireCodeMails,
  hasDueMail,
  insertOutboxMail,
  insertOutboxMails,
  type MailBody,
  makePendingDue,
  type NewListedMail,
  recordDelivered,
  recordFailedAttempt,
} from './repository.ts';
import { type MailTemplate, renderMail } from './templates.ts';
import { logTransport, type MailTransport, refusedByServer, SMTP_POOL, smtpTransport } from './transports.ts';

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
  /**
   * Reminders and notices (not account mail): the recipient's one-click unsubscribe address, sent as
   * `List-Unsubscribe` with `List-Unsubscribe-Post` (RFC 8058).
   */
  unsubscribeUrl?: string;
  /**
   * An expiry reminder: the end of access it is about. It is cancelled rather than delivered once
   * the account's end is another.
   */
  aboutEnd?: Date;
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
  /** Expiry reminders cancelled because their account's end moved while they waited. */
  outdated: number;
}

export interface Mailer {
  /**
   * Renders and writes the outbox row, then attempts delivery in the background, at a random moment
   * within `SEND_SPREAD_MS`: never awaits SMTP, so neither a reply's timing nor the next request's
   * depends on mail, nor on whether a mail goes out at all.
   */
  send(message: MailMessage): Promise<void>;
  /**
   * For jobs that mail many accounts: renders the messages and writes them in one statement, due
   * now, then starts a delivery run in the background (see `deliverDue`). Never awaits SMTP.
   */
  sendBatch(messages: MailMessage[]): Promise<void>;
  /**
   * `sendBatch`'s write alone, in the caller's transaction: its messages go out with the rest of
   * that transaction or not at all. Call `deliverSoon` once it has committed.
   */
  queueBatch(within: Database, messages: MailMessage[]): Promise<void>;
  /** Starts a delivery run in the background, unless one is already waiting for its turn. */
  deliverSoon(): void;
  /**
   * One run of the retry job: delivers every due message, most urgent first, a few at a time (it
   * claims them from the outbox as it goes, so a queue of any length takes no more memory). Runs,
   * this job's and those `sendBatch` starts, take turns.
   */
  deliverDue(): Promise<MailRunResult>;
  /** A message's subject and plain text as it would be mailed (for the same message by Telegram). */
  render(message: MailMessage): { subject: string; text: string };
  state(): MailerState;
  /** Resolves when every delivery under way, attempt or run, has finished (tests and shutdown). */
  idle(): Promise<void>;
  /** Waits for idle(), then closes the SMTP connections (shutdown). */
  close(): Promise<void>;
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
/**
 * The longest a message written by `send()` waits for its attempt, each a random time of its own up
 * to it. The attempt's work (MIME, SMTP, the status write: 1–2 ms of this process) then falls on
 * whichever requests are being served by then, of any kind, not on the one that comes next: made
 * right after the reply, it slowed the next request enough that code requests for addresses with
 * and without an account, taking turns, told which had one (only theirs get a mail delivered).
 */
export const SEND_SPREAD_MS = 500;
/** Lets the caller's reply go out, and a random part of `SEND_SPREAD_MS` pass, before delivery starts. */
const spreadOut = () => new Promise<void>((resolve) => setTimeout(resolve, randomInt(SEND_SPREAD_MS + 1)));

/**
 * How many messages a run has at SMTP at once: one fewer than the pool's connections, so that a
 * code mail's own attempt always finds a connection, however long the queue.
 */
export const RUN_CONCURRENCY = SMTP_POOL.maxConnections - 1;

/** Claimed rows in groups of one priority, most urgent first (the rows come sorted). */
function byPriority(rows: MailOutboxRow[]): MailOutboxRow[][] {
  const groups: MailOutboxRow[][] = [];
  for (const row of rows) {
    const last = groups.at(-1);
    if (last?.[0]?.priority === row.priority) last.push(row);
    else groups.push([row]);
  }
  return groups;
}

export function createMailer(options: MailerOptions): Mailer {
  const { db, log, observe } = options;
  const clock = options.now ?? (() => new Date());
  const site = { siteName: options.siteName, supportEmail: options.supportEmail };
  const transport: MailTransport = options.smtpUrl
    ? smtpTransport(options.smtpUrl, options.from, log)
    : logTransport(log);
  const inFlight = new Set<Promise<unknown>>();
  // Settles when the latest delivery run has ended: runs never overlap in one instance.
  let runsDone: Promise<unknown> = Promise.resolve();
  // A run that sendBatch started and that still waits for its turn: it will find later batches too.
  let runWaiting = false;
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

  /** idle() waits for the work until it settles. */
  function track(work: Promise<unknown>): void {
    const settled: Promise<unknown> = work.catch(() => undefined).finally(() => inFlight.delete(settled));
    inFlight.add(settled);
  }

  /** Work nobody awaits: tracked, and its failure logged, never thrown at anyone. */
  function inBackground(work: Promise<unknown>): void {
    track(work.catch((error: unknown) => log.error({ err: error }, 'background mail delivery failed')));
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

  const render = (message: MailMessage): MailBody =>
    renderMail(message.template, message.language, message.params ?? {}, site);

  /** The outbox row of a message, all but its body. */
  function outboxFields(
    message: MailMessage,
    now: Date,
    leaseUntil: Date | null,
  ): Omit<NewListedMail, 'body'> {
    return {
      to: message.to,
      template: message.template,
      language: message.language,
      userId: message.userId,
      priority: MAIL_PRIORITY[message.template],
      status: message.withhold === true ? 'withheld' : 'pending',
      codeExpiresAt: message.codeExpiresAt,
      unsubscribeUrl: message.unsubscribeUrl,
      aboutEnd: message.aboutEnd,
      createdAt: now,
      leaseUntil,
    };
  }

  async function deliveryRun(): Promise<MailRunResult> {
    const result: MailRunResult = { sent: 0, retried: 0, failed: 0, expired: 0, outdated: 0 };
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
      // One failed connection a run while the server is away, however long the queue: one message
      // finds out whether it is back, and the run widens once one gets through.
      const limit = serverUnreachable ? 1 : RUN_CONCURRENCY;
      const claimed = await claimDueMail(db, now, after(now, LEASE_MS), limit);
      if (claimed.length === 0) break;
      const outdated = await cancelOutdatedReminders(db, claimed);
      result.outdated += outdated.size;
      const deliverable = claimed.filter((row) => !outdated.has(row.id));
      // A priority at a time: no message of this instance overtakes a more urgent one.
      for (const rows of byPriority(deliverable)) {
        for (const outcome of await Promise.all(rows.map(attempt))) {
          if (outcome === 'sent') result.sent += 1;
          else if (outcome === 'retry') result.retried += 1;
          else result.failed += 1;
        }
      }
      if (serverUnreachable) break;
    }
    return result;
  }

  /** Starts `run` once every run queued before it has ended. */
  function afterOtherRuns<T>(run: () => Promise<T>): Promise<T> {
    const queued = runsDone.then(run);
    runsDone = queued.catch(() => undefined);
    return queued;
  }

  async function idle(): Promise<void> {
    while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
  }

  async function queueBatch(within: Database, messages: MailMessage[]): Promise<void> {
    if (messages.length === 0) return;
    const now = clock();
    // Messages alike (a job's warning in one language) are rendered and written with one body.
    const bodies: MailBody[] = [];
    const bodyOf = new Map<string, number>();
    const mails = messages.map((message) => {
      const alike = `${message.template} ${message.language} ${JSON.stringify(message.params)}`;
      let body = bodyOf.get(alike);
      if (body === undefined) {
        body = bodies.push(render(message)) - 1;
        bodyOf.set(alike, body);
      }
      return Object.assign(outboxFields(message, now, null), { body });
    });
    await insertOutboxMails(within, bodies, mails);
  }

  function deliverSoon(): void {
    if (runWaiting) return;
    runWaiting = true;
    inBackground(
      afterOtherRuns(() => {
        runWaiting = false;
        return deliveryRun();
      }),
    );
  }

  return {
    async send(message) {
      const now = clock();
      const withheld = message.withhold === true;
      const row = await insertOutboxMail(db, {
        // Claimed from birth by this instance for its immediate attempt, so the job leaves it alone.
        ...outboxFields(message, now, withheld ? null : after(now, LEASE_MS)),
        ...render(message),
      });
      if (!withheld) inBackground(spreadOut().then(() => attempt(row)));
    },

    async sendBatch(messages) {
      await queueBatch(db, messages);
      deliverSoon();
    },

    queueBatch,
    deliverSoon,

    deliverDue() {
      const run = afterOtherRuns(deliveryRun);
      track(run);
      return run;
    },

    render,

    state() {
      if (!options.smtpUrl) return 'off';
      return latestFailed ? 'degraded' : 'ok';
    },

    idle,

    async close() {
      await idle();
      transport.close();
    },
  };
}
