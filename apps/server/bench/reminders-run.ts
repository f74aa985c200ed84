import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { type Database, openDatabase } from '../src/db/client.ts';
import { rowsOf } from '../src/db/rows.ts';
import {
  type ExpiryRemindersResult,
  runExpiryReminders,
} from '../src/modules/expiry-reminders/expiry-reminders.ts';
import { SMTP_POOL } from '../src/modules/mail/transports.ts';
import { startSmtpCatcher } from '../src/testing/smtp-catcher.ts';
import { benchMailer, type MailJobFigures, measureMailJob, timed } from './mail-job-measure.ts';

export interface RemindersBenchSettings {
  /** A migrated-or-empty scratch database on a PostgreSQL server, which the bench fills. */
  databaseUrl: string;
  accounts: number;
  /** How many of them are due the 7-day reminder now: every (accounts / due)th account. */
  due: number;
  /** How long to wait for every reminder to reach the SMTP server. */
  deliveryTimeoutMs: number;
}

export interface RemindersBenchFigures extends MailJobFigures<ExpiryRemindersResult> {
  seedSeconds: number;
  /** A code mail sent right after the job: reminders still waiting then, and its time to SMTP. */
  code: { queuedBehind: number; seconds: number };
}

/** The full run (the issue's), and `--quick`'s. */
export const SIZES = {
  full: { accounts: 1_000_000, due: 30_000 },
  quick: { accounts: 10_000, due: 1_000 },
};

const reminded = (result: ExpiryRemindersResult) =>
  Object.values(result.sent).reduce((sum, count) => sum + count, 0);

interface Goal {
  text: string;
  holds(figures: RemindersBenchFigures, settings: RemindersBenchSettings): boolean;
}

/** The goals, each printed beside its figure. */
export const GOALS: Record<
  'jobSeconds' | 'memoryGrowthMb' | 'heapRetainedMb' | 'smtp' | 'reminded' | 'code',
  Goal
> = {
  jobSeconds: { text: '≤ 60 s', holds: (figures) => figures.jobSeconds <= 60 },
  // Each reminder's body is its own (its links and time): a batch's bodies are a few MB of strings,
  // which V8 collects lazily, so the peak holds a few batches' garbage. Flat: bounded, and nothing kept.
  memoryGrowthMb: { text: '≤ +100 MB', holds: (figures) => figures.memoryGrowthMb.job <= 100 },
  heapRetainedMb: { text: '≤ +10 MB', holds: (figures) => figures.heapRetainedMb <= 10 },
  smtp: {
    text: `≤ ${SMTP_POOL.maxConnections} (the pool's limit)`,
    holds: (figures) => figures.smtpConnectionsAtOnce <= SMTP_POOL.maxConnections,
  },
  reminded: {
    text: 'every account due, each mailed once',
    holds: (figures, settings) =>
      reminded(figures.result) === settings.due && figures.delivered === settings.due + 1,
  },
  code: { text: '≤ 5 s', holds: (figures) => figures.code.seconds <= 5 },
};

/**
 * Accounts created a year ago, written by `generate_series`, languages in turn. Every
 * (accounts / due)th, `due` of them, ends within the 7-day reminder's window now (spread over its 12 hours) and has
 * a paid order; of the others, one in ten ends in 8 to 40 days (not due), one in ten ended long ago,
 * the rest never had access.
 */
async function seed(db: Database, settings: RemindersBenchSettings, now: Date): Promise<void> {
  const every = Math.floor(settings.accounts / settings.due);
  const at = sql`${now.toISOString()}::timestamptz`;
  await db.execute(sql`
    insert into users (email, invite_code, language, created_at, expire_at, connections)
    select 'reminded-' || n || '@example.com', 'R' || n, (array['en', 'zh', 'tw'])[n % 3 + 1],
      ${at} - interval '365 days',
      case
        when n % ${every} = 0 and n <= ${every * settings.due}
          then ${at} + interval '7 days' - (n % 700) * interval '1 minute'
        when n % 10 = 1 then ${at} + (8 + n % 33) * interval '1 day'
        when n % 10 = 2 then ${at} - (n % 300) * interval '1 day'
      end,
      1 + n % 3
    from generate_series(1, ${settings.accounts}::int) as n`);
  await db.execute(sql`
    insert into orders (id, user_id, period, months, days, connections, unit_price, amount, currency,
      pay_method, provider, status, created_at, latest_pay_at, paid_at)
    select 'bench-' || id, id, 'month', 1, 31, connections, 2500, 2500 * connections, 'CNY', 'alipay',
      'sandbox', 'paid', ${at} - interval '24 days', ${at} - interval '24 days', ${at} - interval '24 days'
    from users where expire_at > ${at} + interval '6 days' and expire_at <= ${at} + interval '7 days'`);
  // As autovacuum would leave them: statistics for the planner, pages marked all-visible.
  await db.execute(sql`vacuum analyze users`);
  await db.execute(sql`vacuum analyze orders`);
}

const CODE_ADDRESS = 'waiting-at-a-form@example.com';

/**
 * Seeds the accounts, runs the reminders job with the mailer pointed at a local SMTP server that
 * counts what it receives, and right after it, while the reminders wait in the outbox, sends a code
 * mail and times its way to the SMTP server; then waits until every reminder has arrived.
 */
export async function runRemindersBench(
  settings: RemindersBenchSettings,
  log: (line: string) => void,
): Promise<RemindersBenchFigures> {
  const now = new Date();
  let codeArrived: number | undefined;
  const smtp = await startSmtpCatcher(0, {
    keep: false,
    // Refuses nobody: notes when the code's recipient is named (the mail is handed over).
    refuse: (recipient) => {
      if (recipient === CODE_ADDRESS) codeArrived ??= performance.now();
      return false;
    },
  });
  const database = await openDatabase({ databaseUrl: settings.databaseUrl, dataDir: 'memory://' });
  const mailer = benchMailer(database.db, smtp.url);
  try {
    await database.migrate();
    const seeded = await timed(() => seed(database.db, settings, now));
    log(`seeded ${settings.accounts.toLocaleString('en-US')} accounts in ${seeded.seconds.toFixed(1)} s`);
    const code = { queuedBehind: 0, seconds: Number.NaN };
    const measured = await measureMailJob({
      job: () =>
        runExpiryReminders({
          db: database.db,
          mailer,
          now,
          origin: 'https://vpn.example.com',
          subscriptionKey: 'bench-reminders-key-0123456789abcdef',
        }),
      // The reminders and the code mail.
      mailed: (result) => reminded(result) + 1,
      mailer,
      smtp,
      deliveryTimeoutMs: settings.deliveryTimeoutMs,
      log,
      afterJob: async () => {
        const [row] = rowsOf<{ waiting: number }>(
          await database.db.execute(
            sql`select count(*)::int as waiting from mail_outbox where status = 'pending' and template like 'expiry_%'`,
          ),
        );
        code.queuedBehind = row?.waiting ?? 0;
        const sent = performance.now();
        await mailer.send({
          to: CODE_ADDRESS,
          template: 'code_forget',
          language: 'en',
          params: { code: '482913', minutes: 10 },
          codeExpiresAt: new Date(Date.now() + 10 * 60_000),
        });
        while (codeArrived === undefined && performance.now() - sent < 60_000) await delay(5);
        code.seconds = ((codeArrived ?? Number.POSITIVE_INFINITY) - sent) / 1000;
        log(
          `a code mail behind ${code.queuedBehind} waiting reminders reached SMTP in ${code.seconds.toFixed(2)} s`,
        );
      },
    });
    return { ...measured, seedSeconds: seeded.seconds, code };
  } finally {
    await mailer.close();
    await smtp.close();
    await database.close();
  }
}
