import { mkdirSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { waitUntil } from '../src/testing/poll.ts';
import { LATE_REPLY_GRACE_MS } from './api-load.ts';
import {
  type Effort,
  healthUnderSignIns,
  type HotRead,
  hotRead,
  idleMemoryMb,
  listLatencies,
  signInAndHash,
} from './api-measures.ts';
import {
  buildProduct,
  type Measured,
  type ProductBuild,
  startProduct,
  startReference,
  workFolder,
} from './api-processes.ts';
import { Results } from './api-report.ts';
import { type BenchDatabase, createBenchDatabase, type Seeded, seedEmbedded } from './api-seed.ts';

export interface BenchSettings {
  /** A PostgreSQL URL whose user may create databases. */
  adminUrl: string;
  /**
   * The benchmark's own database, created and dropped by the run, and the name of its folder of
   * files; what an interrupted run of the same name left is removed first.
   */
  databaseName: string;
  /** For the product on PostgreSQL; without it, it counts its call ceiling in process. */
  redisUrl?: string;
  accounts: number;
  repeats: number;
  effort: Effort;
}

type Log = (line: string) => void;

const ms = (value: number) => `${value.toFixed(1)} ms`;
const rate = (read: HotRead) =>
  `${Math.round(read.perSecond)} req/s${read.unanswered ? ` (${read.unanswered} calls unanswered ${LATE_REPLY_GRACE_MS / 1000} s after the load)` : ''}`;
const memoryText = (idleMb: number, read: HotRead) =>
  `${idleMb.toFixed(0)} MB idle, ${read.rssAfterMb.toFixed(0)} MB after the load`;
export const loadAverage = () =>
  `load average ${loadavg()
    .map((value) => value.toFixed(2))
    .join(', ')}`;

/** Starts a process, measures it, and stops it (and fails if it did not stop cleanly). */
async function measuring<T>(start: () => Promise<Measured>, work: (app: Measured) => Promise<T>): Promise<T> {
  const app = await start();
  try {
    const result = await work(app);
    await app.stop();
    return result;
  } finally {
    if (app.instance.running()) await app.instance.stop('SIGKILL');
  }
}

/** Runs the two in the given order, the reference first or second by turns across the repeats. */
async function inTurn(referenceFirst: boolean, reference: () => Promise<void>, product: () => Promise<void>) {
  for (const step of referenceFirst ? [reference, product] : [product, reference]) await step();
}

/** Sequential scans of `users` so far, once every connection to the database has closed. */
async function usersSequentialScans(database: BenchDatabase): Promise<number> {
  // A backend hands its statistics over when it ends.
  await waitUntil(
    "the product's connections to close",
    async () => {
      const [open] = await database.query<{ n: string }>(
        `select count(*) as n from pg_stat_activity
         where datname = current_database() and backend_type = 'client backend' and pid <> pg_backend_pid()`,
      );
      return Number(open?.n) === 0 ? true : undefined;
    },
    { timeoutMs: 10_000 },
  );
  const [users] = await database.query<{ seq_scan: string }>(
    `select seq_scan from pg_stat_user_tables where relname = 'users'`,
  );
  return Number(users?.seq_scan);
}

interface Stage {
  settings: BenchSettings;
  build: ProductBuild;
  server: BenchDatabase & { seeded: Seeded };
  embedded: { dataDir: string; seeded: Seeded };
  results: Results;
  log: Log;
}

async function onPostgres(stage: Stage, referenceFirst: boolean): Promise<void> {
  const { settings, build, server, results, log } = stage;
  const { effort } = settings;
  const reference = () =>
    measuring(
      () => startReference('Fastify + pg', server.url),
      async (app) => {
        const memory = await idleMemoryMb(app, effort);
        const read = await hotRead(app, server.seeded.inviterToken, effort);
        results.add('idleMemory', 'reference', memory);
        results.add('userInfoRate', 'reference', read.perSecond);
        results.add('userInfoP99', 'reference', read.p99Ms);
        log(`  Fastify + pg: ${rate(read)}, p99 ${ms(read.p99Ms)}; ${memoryText(memory, read)}`);
      },
    );
  const product = () =>
    measuring(
      () =>
        startProduct('product on PostgreSQL', build, {
          databaseUrl: server.url,
          redisUrl: settings.redisUrl,
        }),
      async (app) => {
        const memory = await idleMemoryMb(app, effort);
        const read = await hotRead(app, server.seeded.inviterToken, effort);
        const signIn = await signInAndHash(app, settings.accounts, effort);
        const health = await healthUnderSignIns(app, settings.accounts, effort);
        results.add('idleMemory', 'product', memory);
        results.add('userInfoRate', 'product', read.perSecond);
        results.add('userInfoP99', 'product', read.p99Ms);
        results.add('signInServer', 'reference', signIn.hashMs);
        results.add('signInServer', 'product', signIn.signInMs);
        results.add('healthDuringSignIns', 'reference', health.idleP99Ms);
        results.add('healthDuringSignIns', 'product', health.burstP99Ms);
        log(
          `  product on PostgreSQL: ${rate(read)}, p99 ${ms(read.p99Ms)}; ${memoryText(memory, read)}; ` +
            `sign-in p50 ${ms(signIn.signInMs)} (hash ${ms(signIn.hashMs)}); /healthz p99 idle ${ms(health.idleP99Ms)}, ` +
            `during ${health.signIns} sign-ins ${ms(health.burstP99Ms)}`,
        );
      },
    );
  await inTurn(referenceFirst, reference, product);
}

/** The deep page of a list of `entries`, 10 a page: its middle (page 500 of 10,000 entries). */
const deepPage = (entries: number) => Math.max(1, Math.ceil(entries / 20));

/** The lists on an instance of their own, so that the sequential scans counted are theirs. */
async function listsOnPostgres(stage: Stage): Promise<void> {
  const { settings, build, server, results, log } = stage;
  const { inviterToken, invitees } = server.seeded;
  const scansBefore = await usersSequentialScans(server);
  const [first, deep] = await measuring(
    () =>
      startProduct('product serving lists', build, { databaseUrl: server.url, redisUrl: settings.redisUrl }),
    async (app) => [
      await listLatencies(app, inviterToken, invitees, 1, settings.effort),
      await listLatencies(app, inviterToken, invitees, deepPage(invitees), settings.effort),
    ],
  );
  const scans = (await usersSequentialScans(server)) - scansBefore;
  results.add('invitesFirst', 'reference', first.ordersMs);
  results.add('invitesFirst', 'product', first.invitationsMs);
  results.add('invitesDeep', 'reference', deep.ordersMs);
  results.add('invitesDeep', 'product', deep.invitationsMs);
  results.add('invitesScans', 'product', scans);
  log(
    `  lists p50, invitations / orders: page 1 ${ms(first.invitationsMs)} / ${ms(first.ordersMs)}, ` +
      `page ${deepPage(invitees)} ${ms(deep.invitationsMs)} / ${ms(deep.ordersMs)}; ${scans} sequential scans of users`,
  );
}

async function onEmbedded(stage: Stage, referenceFirst: boolean): Promise<void> {
  const { settings, build, embedded, results, log } = stage;
  const { effort } = settings;
  const reference = () =>
    measuring(
      () => startReference('Fastify + PGlite'),
      async (app) => {
        const read = await hotRead(app, embedded.seeded.inviterToken, effort);
        results.add('embeddedRate', 'reference', read.perSecond);
        results.add('embeddedLoop', 'reference', read.eventLoopP99Ms);
        log(`  Fastify + PGlite: ${rate(read)}, event-loop p99 ${ms(read.eventLoopP99Ms)}`);
      },
    );
  const product = () =>
    measuring(
      () => startProduct('product on the embedded database', build, { dataDir: embedded.dataDir }),
      async (app) => {
        const read = await hotRead(app, embedded.seeded.inviterToken, effort);
        const signIn = await signInAndHash(app, settings.accounts, effort);
        results.add('embeddedRate', 'product', read.perSecond);
        results.add('embeddedLoop', 'product', read.eventLoopP99Ms);
        results.add('signInEmbedded', 'reference', signIn.hashMs);
        results.add('signInEmbedded', 'product', signIn.signInMs);
        log(
          `  product on the embedded database: ${rate(read)}, event-loop p99 ${ms(read.eventLoopP99Ms)}; ` +
            `sign-in p50 ${ms(signIn.signInMs)} (hash ${ms(signIn.hashMs)})`,
        );
      },
    );
  await inTurn(referenceFirst, reference, product);
}

/** Seeds both databases at once: PostgreSQL works in its own processes while PGlite works in this one. */
async function seedBoth(settings: BenchSettings, dataDir: string) {
  const [server, embedded] = await Promise.allSettled([
    createBenchDatabase(settings.adminUrl, settings.databaseName, settings.accounts),
    seedEmbedded(dataDir, settings.accounts),
  ]);
  if (server.status === 'rejected' || embedded.status === 'rejected') {
    if (server.status === 'fulfilled') await server.value.drop();
    throw server.status === 'rejected' ? server.reason : (embedded as PromiseRejectedResult).reason;
  }
  return { server: server.value, embedded: { dataDir, seeded: embedded.value } };
}

/**
 * The whole run: compiles the product, seeds its database on PostgreSQL and an embedded one, then
 * measures the reference apps and the product by turns, `repeats` times. Releases all it made.
 */
export async function runApiBench(settings: BenchSettings, log: Log): Promise<Results> {
  const work = workFolder(settings.databaseName);
  rmSync(work, { recursive: true, force: true });
  const dataDir = path.join(work, 'embedded');
  mkdirSync(dataDir, { recursive: true });
  try {
    const build = buildProduct(path.join(work, 'build'));
    log(`product: ${build.description}`);
    log(
      `seeding ${settings.accounts.toLocaleString('en-US')} accounts on PostgreSQL and on the embedded database…`,
    );
    const { server, embedded } = await seedBoth(settings, dataDir);
    try {
      log(
        `seeded in ${server.seeded.seconds.toFixed(0)} s (PostgreSQL), ${embedded.seeded.seconds.toFixed(0)} s (embedded)`,
      );
      const stage: Stage = { settings, build, server, embedded, results: new Results(), log };
      for (let repeat = 1; repeat <= settings.repeats; repeat += 1) {
        log(`repeat ${repeat} of ${settings.repeats} (${loadAverage()})`);
        const referenceFirst = repeat % 2 === 1;
        await onPostgres(stage, referenceFirst);
        await listsOnPostgres(stage);
        await onEmbedded(stage, referenceFirst);
      }
      return stage.results;
    } finally {
      await server.drop();
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
