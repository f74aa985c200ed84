/*
 * The table of scheduled jobs. The rule for where a job's body lives: in the module that owns the
 * data it works on, with the job's name (ORDERS_JOB in modules/orders/orders-job.ts, MAIL_JOB in the
 * mailer, DASHBOARD_JOB in the dashboard's service). jobs/ holds only this table, the scheduler and
 * the wrapper that counts and logs each run.
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { ALERTS_JOB, runAlerts } from '../modules/alerts/alerts-job.ts';
import { INACTIVE_ACCOUNTS_JOB, runInactiveAccounts } from '../modules/accounts/inactive-accounts.ts';
import { DASHBOARD_JOB, rollUpDashboard } from '../modules/dashboard/service.ts';
import { EXPIRY_REMINDERS_JOB, runExpiryReminders } from '../modules/expiry-reminders/expiry-reminders.ts';
import { type Mailer, MAIL_JOB } from '../modules/mail/mailer.ts';
import { NOTICE_MAIL_JOB, runNoticeMail } from '../modules/notices/notice-mail.ts';
import { logJobRun } from '../modules/operations/job-runs-repository.ts';
import { ORDERS_JOB, runOrdersJob } from '../modules/orders/orders-job.ts';
import type { PaymentConfirmations } from '../modules/orders/payment-confirmation.ts';
import type { GatewayProviders, PaymentProvider } from '../modules/orders/provider.ts';
import { runTicketsJob, TICKETS_JOB } from '../modules/tickets/service.ts';
import { reconcileTraffic, TRAFFIC_RECONCILE_JOB } from '../modules/traffic/reconcile.ts';
import { type ScheduleOptions, scheduleJob } from './scheduler.ts';

export interface ScheduledJob {
  name: string;
  /** 0: not on this instance. */
  everySeconds: number;
  run: (now: Date) => Promise<unknown>;
  options?: ScheduleOptions;
}

export interface JobDeps {
  config: Config;
  db: Database;
  mailer: Mailer;
  confirmations: PaymentConfirmations;
  provider: PaymentProvider;
  gateways: GatewayProviders;
  log: FastifyBaseLogger;
  /** Where the site is, for links in mail sent by jobs (no request to take it from). */
  siteOrigin: string;
  subscriptionKey: string;
  /** Where the back office is, for the links in staff alerts. */
  adminOrigin: string;
}

/** The scheduled jobs, each on every instance that does not turn it off (0); they lock in the database. */
export function scheduledJobs({
  config,
  db,
  mailer,
  confirmations,
  provider,
  gateways,
  log,
  siteOrigin,
  subscriptionKey,
  adminOrigin,
}: JobDeps): ScheduledJob[] {
  return [
    {
      name: INACTIVE_ACCOUNTS_JOB,
      everySeconds: config.inactiveAccountsEveryMinutes * 60,
      run: (now) => runInactiveAccounts({ db, mailer, now }),
    },
    // Every few seconds on every instance: its runs are logged at debug, failures still as errors.
    {
      name: MAIL_JOB,
      everySeconds: config.mailEverySeconds,
      run: () => mailer.deliverDue(),
      options: { finishedLogLevel: 'debug' },
    },
    {
      name: EXPIRY_REMINDERS_JOB,
      everySeconds: config.remindersEveryMinutes * 60,
      run: (now) => runExpiryReminders({ db, mailer, now, origin: siteOrigin, subscriptionKey }),
    },
    {
      name: NOTICE_MAIL_JOB,
      everySeconds: config.noticeMailEveryMinutes * 60,
      run: (now) => runNoticeMail({ db, mailer, now, origin: siteOrigin, subscriptionKey }),
    },
    {
      name: ORDERS_JOB,
      everySeconds: config.ordersEveryMinutes * 60,
      run: (now) => runOrdersJob({ db, provider, gateways, log, confirmations }, now),
    },
    {
      name: DASHBOARD_JOB,
      everySeconds: config.dashboardEveryMinutes * 60,
      run: (now) => rollUpDashboard(db, now),
    },
    {
      name: ALERTS_JOB,
      everySeconds: config.alertsEverySeconds,
      run: (now) =>
        runAlerts({ db, mailer, now, adminOrigin, nodeSilentMinutes: config.alertNodeSilentMinutes }),
      options: { finishedLogLevel: 'debug' },
    },
    {
      name: TRAFFIC_RECONCILE_JOB,
      everySeconds: config.trafficReconcileEveryMinutes * 60,
      run: (now) => reconcileTraffic(db, now),
    },
    {
      name: TICKETS_JOB,
      everySeconds: config.ticketsEveryMinutes * 60,
      run: (now) => runTicketsJob(db, now),
    },
  ];
}

/** Schedules each job this instance runs; every run is counted in the metrics and logged for the back office. */
export function startJobs(app: FastifyInstance, db: Database, jobs: ScheduledJob[]): void {
  for (const { name, everySeconds, run, options } of jobs.filter((job) => job.everySeconds > 0)) {
    scheduleJob(app, name, everySeconds * 1000, run, {
      ...options,
      onFinished: async (finished) => {
        app.metrics.jobFinished(name, finished.succeeded, finished.finishedAt);
        // The back office's jobs screen; a run whose log cannot be written (the database away) is
        // still in the server's log.
        await logJobRun(db, finished).catch((error: unknown) =>
          app.log.warn({ err: error, job: name }, 'could not log the job run'),
        );
      },
    });
  }
}
