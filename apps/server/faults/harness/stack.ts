import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { inject } from 'vitest';
import { type SmtpCatcher, startSmtpCatcher } from '../../src/testing/smtp-catcher.ts';
import { createFaultDatabase, type FaultDatabase } from './database.ts';
import { freePort, type Instance, repositoryRoot, startInstance } from './instances.ts';
import { noteLeftover, RUN_MARK } from './leftovers.ts';
import { SEEDED_PASSWORD } from './accounts.ts';
import { noteSecret, secretsIn } from './secrets.ts';
import { faultSettings } from './settings.ts';
import { startTcpProxy } from '../../src/testing/tcp-proxy.ts';

/**
 * Everything one scenario file runs on: its own database, one SMTP server, and server instances
 * configured as an operator configures them. cleanup() releases all of it, whatever failed.
 */
export interface FaultStack {
  database: FaultDatabase;
  /** Every message the instances delivered. */
  smtp: SmtpCatcher;
  /** Bearer token of GET /metrics on every instance. */
  metricsToken: string;
  /** Starts instances (in parallel, as a deployment does) with the stack's settings over `env`. */
  startInstances(names: string[], env?: Record<string, string>): Promise<Instance[]>;
  /**
   * Takes SMTP away: its port refuses connections and open ones are cut (a pooled connection
   * included), until reopenSmtp() accepts them again on the same port.
   */
  closeSmtp(): Promise<void>;
  reopenSmtp(): Promise<void>;
  /** Runs `release` at cleanup, before the database is dropped. */
  defer(release: () => Promise<unknown> | unknown): void;
  cleanup(): Promise<void>;
}

export interface StackOptions {
  /** Settings for every instance of this stack, over the defaults below. */
  env?: Record<string, string>;
}

/** The key of the links the instances sign (unsubscribe links): the scenarios derive them too. */
export const SUBSCRIPTION_KEY = 'fault-subscription-key-0123456789abcdef';

/** A folder that does not exist: the instances serve the API only, the same whether or not the site is built. */
const NO_WEB_BUILD = path.join(repositoryRoot, 'apps/server/.no-web-build-for-fault-tests');

export async function startFaultStack(options: StackOptions = {}): Promise<FaultStack> {
  const settings = faultSettings();
  const releases: (() => Promise<unknown> | unknown)[] = [];
  const instances: Instance[] = [];
  const metricsToken = noteSecret('metrics token', randomBytes(16).toString('hex'));
  noteSecret('subscription key', SUBSCRIPTION_KEY);
  noteSecret('seeded password', SEEDED_PASSWORD);

  const cleanup = async () => {
    const failures: unknown[] = [];
    const attempt = async (release: () => Promise<unknown> | unknown) => {
      try {
        await release();
      } catch (error) {
        failures.push(error);
      }
    };
    const stopped = instances.splice(0);
    await Promise.all(stopped.map((instance) => attempt(() => instance.stop('SIGKILL'))));
    // Whatever else the file checked: no secret it created may be in any line an instance wrote.
    const leaked = secretsIn(stopped.flatMap((instance) => instance.lines()));
    if (leaked.length) {
      const lines = leaked.map(({ label, line }) => `${label}: ${line}`);
      failures.push(new Error(`secrets in the instances' logs:\n${lines.join('\n')}`));
    }
    for (const release of releases.splice(0).reverse()) await attempt(release);
    if (failures.length) throw new AggregateError(failures, 'fault stack cleanup failed');
  };

  // Recorded as soon as they exist, so the run's teardown can release them if this file cannot.
  const run = inject('faultRun');
  if (!run)
    throw new Error(
      'run the fault suite through its own config: vitest run --config vitest.faults.config.ts',
    );
  try {
    const database = await createFaultDatabase(settings.databaseUrl, (name) =>
      noteLeftover(run, { database: name }),
    );
    releases.push(() => database.drop());
    const smtp = await startSmtpCatcher();
    releases.push(() => smtp.close());
    // The instances reach SMTP through a proxy, so an outage also cuts connections already open.
    const smtpProxy = await startTcpProxy({ host: '127.0.0.1', port: smtp.port }, 'pass');
    releases.push(() => smtpProxy.close());

    const startOne = async (name: string, env: Record<string, string>) => {
      const port = await freePort();
      const instance = await startInstance(
        name,
        {
          DATABASE_URL: database.url,
          REDIS_URL: settings.redisUrl,
          SMTP_URL: `smtp://127.0.0.1:${smtpProxy.port}?ignoreTLS=true`,
          PORT: String(port),
          HOST: '127.0.0.1',
          NODE_ENV: 'test',
          LOG_LEVEL: 'warn',
          TRUST_PROXY: 'true',
          REQUEST_TIMEOUT_MS: '10000',
          SHUTDOWN_TIMEOUT_MS: '10000',
          MAIL_EVERY_SECONDS: '2',
          METRICS_TOKEN: metricsToken,
          INACTIVE_ACCOUNTS_EVERY_MINUTES: '60',
          ORDERS_EVERY_MINUTES: '1',
          WEB_DIST_DIR: NO_WEB_BUILD,
          ADMIN_DIST_DIR: NO_WEB_BUILD,
          SUBSCRIPTION_KEY,
          [RUN_MARK]: run,
          ...options.env,
          ...env,
        },
        { onSpawned: (pid) => noteLeftover(run, { process: pid }) },
      );
      instances.push(instance);
      return instance;
    };

    return {
      database,
      smtp,
      metricsToken,
      startInstances: async (names, env = {}) => {
        // Settled, not all: an instance still starting when another fails must be known to cleanup().
        const results = await Promise.allSettled(names.map((name) => startOne(name, env)));
        const failed = results.find((result) => result.status === 'rejected');
        if (failed) throw failed.reason;
        return results.map((result) => (result as PromiseFulfilledResult<Instance>).value);
      },
      closeSmtp: () => smtpProxy.refuse(),
      reopenSmtp: () => smtpProxy.pass(),
      defer: (release) => void releases.push(release),
      cleanup,
    };
  } catch (error) {
    await cleanup().catch(() => undefined);
    throw error;
  }
}
