import { sql } from 'drizzle-orm';
import { type Database, openDatabase } from '../src/db/client.ts';
import { INACTIVE_AFTER_DAYS } from '../src/modules/accounts/inactive-accounts-repository.ts';
import {
  type InactiveAccountsResult,
  runInactiveAccounts,
} from '../src/modules/accounts/inactive-accounts.ts';
import { SMTP_POOL } from '../src/modules/mail/transports.ts';
import { startSmtpCatcher } from '../src/testing/smtp-catcher.ts';
import { benchMailer, type MailJobFigures, measureMailJob, timed } from './mail-job-measure.ts';

export interface InactiveBenchSettings {
  /** A migrated-or-empty scratch database on a PostgreSQL server, which the bench fills. */
  databaseUrl: string;
  accounts: number;
  /** How many of them the job must warn: every (accounts / toWarn)th account. */
  toWarn: number;
  /** How long to wait for every warning to reach the SMTP server. */
  deliveryTimeoutMs: number;
}

export interface InactiveBenchFigures extends MailJobFigures<InactiveAccountsResult> {
  seedSeconds: number;
  /** A run before the accounts due a warning are written: it finds nobody to warn. */
  idleRunSeconds: number;
}

/** The full run, and `--quick`'s. */
export const SIZES = {
  full: { accounts: 1_000_000, toWarn: 200_000 },
  quick: { accounts: 10_000, toWarn: 2_500 },
};

interface Goal {
  text: string;
  holds(figures: InactiveBenchFigures, settings: InactiveBenchSettings): boolean;
}

/** The goals, each printed beside its figure. */
export const GOALS: Record<'jobSeconds' | 'memoryGrowthMb' | 'smtpConnectionsAtOnce' | 'warned', Goal> = {
  jobSeconds: { text: '≤ 60 s', holds: (figures) => figures.jobSeconds <= 60 },
  memoryGrowthMb: { text: '≤ +50 MB', holds: (figures) => figures.memoryGrowthMb.job <= 50 },
  smtpConnectionsAtOnce: {
    text: `≤ ${SMTP_POOL.maxConnections} (the pool's limit)`,
    holds: (figures) => figures.smtpConnectionsAtOnce <= SMTP_POOL.maxConnections,
  },
  warned: {
    text: 'every account due a warning, each mailed once',
    holds: (figures, settings) =>
      figures.result.warned === settings.toWarn && figures.delivered === settings.toWarn,
  },
};

/**
 * Accounts created 400 to 700 days before `now`, written by `generate_series`. Every
 * (accounts / toWarn)th has not signed in for more than three months (some never did) and has no
 * access: the job warns it. Of the others, one in twenty has not signed in either but has access
 * (the job reads and skips it), and the rest signed in during the past month. Languages rotate
 * through en, zh and tw. `due` says which of the two kinds this call writes.
 */
async function seed(db: Database, settings: InactiveBenchSettings, now: Date, due: boolean): Promise<void> {
  const every = Math.floor(settings.accounts / settings.toWarn);
  const at = sql`${now.toISOString()}::timestamptz`;
  await db.execute(sql`
    insert into users (email, invite_code, language, created_at, last_login_at, expire_at)
    select 'inactive-' || n || '@example.com', 'N' || n, (array['en', 'zh', 'tw'])[n % 3 + 1],
      ${at} - (400 + n % 300) * interval '1 day',
      case
        when n % ${every} = 0 and n % 10 = 0 then null
        when n % ${every} = 0 or n % 20 = 1
          then ${at} - (${INACTIVE_AFTER_DAYS + 1} + n % 300) * interval '1 day'
        else ${at} - (n % 30) * interval '1 day'
      end,
      case when n % 20 = 1 then ${at} + interval '30 days' end
    from generate_series(1, ${settings.accounts}::int) as n
    where (n % ${every} = 0) = ${due}`);
  // As autovacuum would leave them: statistics for the planner, pages marked all-visible.
  await db.execute(sql`vacuum analyze users`);
}

/**
 * Seeds the accounts not due a warning and times a run of the inactive-accounts job that finds
 * nobody to warn; seeds those due one, and runs the job again with the mailer pointed at a local
 * SMTP server that counts what it receives, measuring the run, the memory and the connections until
 * every warning has arrived.
 */
export async function runInactiveBench(
  settings: InactiveBenchSettings,
  log: (line: string) => void,
): Promise<InactiveBenchFigures> {
  const now = new Date();
  const database = await openDatabase({ databaseUrl: settings.databaseUrl, dataDir: 'memory://' });
  const smtp = await startSmtpCatcher(0, { keep: false });
  const mailer = benchMailer(database.db, smtp.url);
  try {
    await database.migrate();
    const runJob = () => timed(() => runInactiveAccounts({ db: database.db, mailer, now }));
    const others = await timed(() => seed(database.db, settings, now, false));
    const idle = await runJob();
    if (idle.value.warned !== 0) throw new Error(`the run with nobody to warn warned ${idle.value.warned}`);
    const due = await timed(() => seed(database.db, settings, now, true));
    const seedSeconds = others.seconds + due.seconds;
    log(`seeded ${settings.accounts.toLocaleString('en-US')} accounts in ${seedSeconds.toFixed(1)} s`);

    const measured = await measureMailJob({
      job: async () => (await runJob()).value,
      mailed: (result) => result.warned,
      mailer,
      smtp,
      deliveryTimeoutMs: settings.deliveryTimeoutMs,
      log,
    });
    return { ...measured, seedSeconds, idleRunSeconds: idle.seconds };
  } finally {
    await mailer.close();
    await smtp.close();
    await database.close();
  }
}
