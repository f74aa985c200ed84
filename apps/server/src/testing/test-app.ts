import { randomInt } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import { afterAll, beforeAll, vi } from 'vitest';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import type { DatabaseHandle } from '../db/client.ts';
import type { UserRow } from '../db/schema/index.ts';
import { createSession } from '../modules/sessions/repository.ts';
import { createUser } from '../modules/users/repository.ts';
import { openTestDatabase, openTwoInstances } from './test-database.ts';

export interface TestApp {
  app: FastifyInstance;
  database: DatabaseHandle;
  close(): Promise<void>;
}

/**
 * The real app on a fresh test database, configured like production but for the given variables.
 * `extend` may add routes before the app is ready (a test's own probe of the shared plumbing).
 */
export async function startTestApp(
  env: Record<string, string> = {},
  extend?: (app: FastifyInstance) => void,
  /** A database to use instead of a fresh one (closed by close() all the same). */
  given?: DatabaseHandle,
  /** Where the app's whole log goes, every level; without it the app logs nothing. */
  log?: DestinationStream,
): Promise<TestApp> {
  const database = given ?? (await openTestDatabase());
  // The scheduled jobs stay off: tests run them themselves, with their own clock.
  const config = loadConfig({
    NODE_ENV: 'test',
    WEB_DIST_DIR: '/nonexistent',
    ADMIN_DIST_DIR: '/nonexistent',
    SUBSCRIPTION_KEY: TEST_SUBSCRIPTION_KEY,
    INACTIVE_ACCOUNTS_EVERY_MINUTES: '0',
    REMINDERS_EVERY_MINUTES: '0',
    NOTICE_MAIL_EVERY_MINUTES: '0',
    MAIL_EVERY_SECONDS: '0',
    TELEGRAM_WORKER: 'off',
    ALERTS_EVERY_SECONDS: '0',
    DASHBOARD_EVERY_MINUTES: '0',
    TRAFFIC_RECONCILE_EVERY_MINUTES: '0',
    TICKETS_EVERY_MINUTES: '0',
    ...env,
  });
  const app = await buildApp({ config, database, logger: log ? { stream: log, level: 'trace' } : false });
  try {
    extend?.(app);
    await app.ready();
  } catch (error) {
    await database.close();
    throw error;
  }
  return {
    app,
    database,
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}

/**
 * The real app on a fresh test database for the enclosing suite: started before its first test and
 * closed after its last (`startTestApp` with the suite's hooks). `env` may be a function, read at
 * start, when it names what an earlier `beforeAll` started (an SMTP server's address). `app` and
 * `database` are read from the running app, so a suite may refer to them before it starts;
 * `close()` may come early (to read the whole log), and the suite's end then leaves it be.
 */
export function useTestApp(
  env: Record<string, string> | (() => Record<string, string>) = {},
  options: { extend?: (app: FastifyInstance) => void; log?: DestinationStream } = {},
): TestApp {
  let running: TestApp | undefined;
  let closing: Promise<void> | undefined;
  const started = () => {
    if (!running) throw new Error('The test app starts in beforeAll: use it in hooks and tests');
    return running;
  };
  const suite: TestApp = {
    get app() {
      return started().app;
    },
    get database() {
      return started().database;
    },
    close: () => (closing ??= running?.close() ?? Promise.resolve()),
  };
  beforeAll(async () => {
    running = await startTestApp(
      typeof env === 'function' ? env() : env,
      options.extend,
      undefined,
      options.log,
    );
  });
  afterAll(() => suite.close());
  return suite;
}

let userCount = 0;

/** The subscription key of every test server: the tokens a test derives match the server's. */
export const TEST_SUBSCRIPTION_KEY = 'test-subscription-key-0123456789abcdef';

/** A user with a live session, as sign-in would leave them. */
export async function signedInUser(
  database: DatabaseHandle,
  values: Partial<{ email: string }> = {},
): Promise<{ user: UserRow; token: string }> {
  userCount += 1;
  const user = await createUser(database.db, { email: values.email ?? `user${userCount}@example.com` });
  const token = await createSession(database.db, user.id);
  return { user, token };
}

/**
 * A client address from the benchmarking range (198.18.0.0/15), new each time: rate-limit counters
 * kept in a shared Redis outlive a test run, so each test counts from its own address.
 */
export const newClientAddress = () => `198.18.${randomInt(256)}.${randomInt(1, 255)}`;

/**
 * POSTs `/web/` calls as the browser client does: from `address()`, with the session token if given.
 * Both are read at each call, so a suite can make it before its app starts and change address per test.
 */
export function webCaller(app: () => FastifyInstance, address: () => string) {
  return (url: string, payload: object = {}, token?: string) =>
    app().inject({
      method: 'POST',
      url,
      payload,
      headers: token ? { authorization: token } : {},
      remoteAddress: address(),
    });
}

/**
 * Runs `act` as if it happened `seconds` from now: the clock the app reads (Date, and the in-process
 * limit windows that read it) is set ahead while it runs; timers keep running on real time.
 */
export async function later<T>(seconds: number, act: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + seconds * 1000 });
  try {
    return await act();
  } finally {
    vi.useRealTimers();
  }
}

/**
 * Two servers of one site on one fresh, migrated PostgreSQL database, for the enclosing suite:
 * started before its first test and closed after its last (races between instances).
 */
export function useTwoTestApps(env: Record<string, string> = {}): { first: TestApp; second: TestApp } {
  const two = {} as { first: TestApp; second: TestApp };
  let instances: Awaited<ReturnType<typeof openTwoInstances>> | undefined;
  beforeAll(async () => {
    instances = await openTwoInstances();
    two.first = await startTestApp(env, undefined, instances.first);
    two.second = await startTestApp(env, undefined, instances.second);
  });
  afterAll(async () => {
    await two.first?.app.close();
    await two.second?.app.close();
    await instances?.close();
  });
  return two;
}
