import { type AddressObject, simpleParser } from 'mailparser';
import { SMTPServer, type SMTPServerSession } from 'smtp-server';

/**
 * A real SMTP server on 127.0.0.1 that keeps every message it receives, for server tests, the
 * browser journeys' server (journey-server.ts runs outside vitest, so this file must not import it)
 * and the benchmarks (which only count what arrives).
 */

export interface CaughtMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Every header as it was sent, by its name in lower case (`list-unsubscribe`). */
  headers: Record<string, string>;
}

export interface SmtpCatcher {
  port: number;
  /** Works as SMTP_URL: the query asks nodemailer to skip STARTTLS, which this server does not offer. */
  url: string;
  /** Every message received, in order of arrival; always empty with `keep: false`. */
  messages: CaughtMail[];
  /** How many messages it has received, kept or not (clear() does not reset it). */
  received(): number;
  /** Client connections open now, the most that were ever open at once, and how many it accepted. */
  connections(): { open: number; mostAtOnce: number; total: number };
  /** The first message, already caught or still to come, that matches. */
  waitFor(predicate: (mail: CaughtMail) => boolean, timeoutMs?: number): Promise<CaughtMail>;
  clear(): void;
  close(): Promise<void>;
}

function recipients(
  session: SMTPServerSession,
  parsedTo: AddressObject | AddressObject[] | undefined,
): string {
  const envelope = session.envelope.rcptTo.map((rcpt) => rcpt.address);
  if (envelope.length > 0) return envelope.join(', ');
  const headers = Array.isArray(parsedTo) ? parsedTo : parsedTo ? [parsedTo] : [];
  return headers.flatMap((header) => header.value.map((address) => address.address ?? '')).join(', ');
}

const CODE = /(?<!\d)\d{6}(?!\d)/;

/** Whether a caught message carries a 6-digit code: a code mail, not a notice. */
export const hasCode = (mail: CaughtMail) => CODE.test(mail.text);

/** The 6-digit code in a caught message; throws when there is none, so a test fails where it should. */
export function codeIn(mail: CaughtMail): string {
  const match = CODE.exec(mail.text);
  if (!match) throw new Error(`no 6-digit code in the mail "${mail.subject}" to ${mail.to}`);
  return match[0];
}

export interface SmtpCatcherOptions {
  /** Recipients the server refuses (550 at RCPT TO), as a real server refuses an unknown mailbox. */
  refuse?: (recipient: string) => boolean;
  /** False: messages are counted and dropped unread, so that a bench's many thousands take no memory. */
  keep?: boolean;
}

/**
 * How long close() lets clients end their connections before it ends them: a pooled client keeps
 * its idle connections open for minutes.
 */
const CLOSE_TIMEOUT_MS = 100;

export async function startSmtpCatcher(port = 0, options: SmtpCatcherOptions = {}): Promise<SmtpCatcher> {
  const messages: CaughtMail[] = [];
  const waiters = new Set<(mail: CaughtMail) => void>();
  let received = 0;
  let open = 0;
  let mostAtOnce = 0;
  let total = 0;

  function caught(mail: CaughtMail): void {
    messages.push(mail);
    for (const waiter of waiters) waiter(mail);
  }

  const server = new SMTPServer({
    // smtp-server's built-in certificate has expired, so STARTTLS would fail every delivery.
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    logger: false,
    closeTimeout: CLOSE_TIMEOUT_MS,
    onRcptTo(address, _session, callback) {
      if (!options.refuse?.(address.address)) return callback();
      callback(Object.assign(new Error(`no mailbox here: ${address.address}`), { responseCode: 550 }));
    },
    onData(stream, session, callback) {
      if (options.keep === false) {
        stream.on('end', () => {
          received += 1;
          callback();
        });
        stream.resume();
        return;
      }
      simpleParser(stream)
        .then((parsed) => {
          received += 1;
          caught({
            to: recipients(session, parsed.to),
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: parsed.html === false ? '' : parsed.html,
            headers: Object.fromEntries(
              parsed.headerLines.map(({ key, line }) => [key, line.slice(line.indexOf(':') + 1).trim()]),
            ),
          });
          callback();
        })
        .catch((error: unknown) => callback(error instanceof Error ? error : new Error(String(error))));
    },
  });
  server.server.on('connection', (socket) => {
    open += 1;
    total += 1;
    mostAtOnce = Math.max(mostAtOnce, open);
    socket.once('close', () => (open -= 1));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.server.address();
  const boundPort = typeof address === 'object' && address ? address.port : port;

  function waitFor(predicate: (mail: CaughtMail) => boolean, timeoutMs = 5000): Promise<CaughtMail> {
    const caught = messages.find(predicate);
    if (caught) return Promise.resolve(caught);
    return new Promise((resolve, reject) => {
      const waiter = (mail: CaughtMail) => {
        if (!predicate(mail)) return;
        clearTimeout(timer);
        waiters.delete(waiter);
        resolve(mail);
      };
      const timer = setTimeout(() => {
        waiters.delete(waiter);
        const seen = messages.map((mail) => `"${mail.subject}" to ${mail.to}`).join('; ') || 'none';
        reject(new Error(`no matching mail within ${timeoutMs} ms (caught: ${seen})`));
      }, timeoutMs);
      waiters.add(waiter);
    });
  }

  return {
    port: boundPort,
    url: `smtp://127.0.0.1:${boundPort}?ignoreTLS=true`,
    messages,
    received: () => received,
    connections: () => ({ open, mostAtOnce, total }),
    waitFor,
    clear: () => void messages.splice(0),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
