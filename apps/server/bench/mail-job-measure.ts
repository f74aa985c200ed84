import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import Fastify from 'fastify';
import type { Database } from '../src/db/client.ts';
import { createMailer, type Mailer } from '../src/modules/mail/mailer.ts';
import type { SmtpCatcher } from '../src/testing/smtp-catcher.ts';

const SAMPLE_EVERY_MS = 50;

/** Anonymous memory (heap, stacks, buffers) of this process: what a leak or a loaded batch grows. */
function rssAnonMb(): number {
  const status = readFileSync('/proc/self/status', 'utf8');
  return Number(/RssAnon:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN) / 1024;
}

/** The product's mailer, as a bench's job uses it: real SMTP, nothing logged. */
export const benchMailer = (db: Database, smtpUrl: string): Mailer =>
  createMailer({
    db,
    smtpUrl,
    from: 'Skyway <no-reply@skyway.test>',
    siteName: 'Skyway',
    supportEmail: 'help@skyway.test',
    log: Fastify({ logger: false }).log,
  });

export async function timed<T>(work: () => Promise<T>): Promise<{ value: T; seconds: number }> {
  const started = performance.now();
  const value = await work();
  return { value, seconds: (performance.now() - started) / 1000 };
}

/** Live memory only: the garbage of seeding must not count as room the run had (node --expose-gc). */
function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

export interface MailJobFigures<R> {
  result: R;
  jobSeconds: number;
  /**
   * Growth of the process's anonymous memory at its highest, from before the job: during the job
   * (the goals' figure), and from the job's end until every message had reached the SMTP server.
   */
  memoryGrowthMb: { job: number; delivery: number };
  /** What the job left on the JavaScript heap: heap in use after a full collection, against before. */
  heapRetainedMb: number;
  smtpConnectionsAtOnce: number;
  delivered: number;
  /** From the job's start until the SMTP server had every message. */
  deliveredSeconds: number;
}

/**
 * Runs a job that mails many accounts, from a full garbage collection, sampling the process's memory,
 * then waits until the SMTP server has received the `mailed(result)` messages it wrote (or the time
 * is up). `afterJob` runs between the two, while the messages wait in the outbox.
 */
export async function measureMailJob<R>(options: {
  job: () => Promise<R>;
  mailed: (result: R) => number;
  mailer: Mailer;
  smtp: SmtpCatcher;
  deliveryTimeoutMs: number;
  log: (line: string) => void;
  afterJob?: () => Promise<void>;
}): Promise<MailJobFigures<R>> {
  const { smtp } = options;
  collectGarbage();
  const baseline = rssAnonMb();
  const heapBefore = process.memoryUsage().heapUsed;
  const highest = { job: baseline, delivery: baseline };
  let phase: keyof typeof highest = 'job';
  const sample = () => (highest[phase] = Math.max(highest[phase], rssAnonMb()));
  const sampler = setInterval(sample, SAMPLE_EVERY_MS);
  try {
    const started = performance.now();
    const { value: result, seconds: jobSeconds } = await timed(options.job);
    sample();
    phase = 'delivery';
    collectGarbage();
    const heapRetainedMb = (process.memoryUsage().heapUsed - heapBefore) / 1024 / 1024;
    options.log(`job: ${JSON.stringify(result)} in ${jobSeconds.toFixed(1)} s; waiting for the mail`);
    await options.afterJob?.();
    const deadline = started + options.deliveryTimeoutMs;
    while (smtp.received() < options.mailed(result) && performance.now() < deadline) await delay(20);
    const deliveredSeconds = (performance.now() - started) / 1000;
    await options.mailer.idle();
    sample();
    return {
      result,
      jobSeconds,
      memoryGrowthMb: { job: highest.job - baseline, delivery: highest.delivery - baseline },
      heapRetainedMb,
      smtpConnectionsAtOnce: smtp.connections().mostAtOnce,
      delivered: smtp.received(),
      deliveredSeconds,
    };
  } finally {
    clearInterval(sampler);
  }
}
