import Fastify from 'fastify';
import type { Database } from '../db/client.ts';
import { createMailer, type Mailer } from '../modules/mail/mailer.ts';

/**
 * The jobs' mailer in tests: the real outbox on `db`, delivering to the log (or to `smtpUrl`), on
 * the test's clock when it gives one.
 */
export function testMailer(db: Database, options: { smtpUrl?: string; now?: () => Date } = {}): Mailer {
  return createMailer({
    db,
    smtpUrl: options.smtpUrl,
    from: 'a@b.test',
    siteName: 'Skyway',
    supportEmail: 's@b.test',
    log: Fastify({ logger: false }).log,
    ...(options.now ? { now: options.now } : {}),
  });
}
