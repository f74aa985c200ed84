import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { freePort, type Instance, repositoryRoot, startInstance } from '../faults/harness/instances.ts';
import { waitUntil } from '../src/testing/poll.ts';

const server = path.join(repositoryRoot, 'apps/server');
const PROBE = path.join(server, 'bench/api-event-loop-probe.mjs');
const REFERENCE_APP = path.join(server, 'bench/api-reference-app.mjs');
/** A folder that does not exist: the product serves the API only, the same whether or not the site is built. */
const NO_WEB_BUILD = path.join(server, '.no-web-build-for-bench');
/** Products start on a seeded embedded database, which takes PGlite longer to open. */
const READY_TIMEOUT_MS = 180_000;

/** The subscription key of the product under measurement: a bench derives its slots' links with it. */
export const BENCH_SUBSCRIPTION_KEY = 'bench-subscription-key-0123456789abcdef';

/** How the product runs: as production does, or from its sources when it cannot be compiled. */
export interface ProductBuild {
  nodeArgs: string[];
  /** Said with the figures. */
  description: string;
}

/**
 * Compiles the current sources as `npm run build -w apps/server` does, into `folder` (inside the
 * package, so that the bundle finds the installed packages it leaves out, as dist/ does), not into
 * dist/, which may be in use and older than the sources. When the build fails, the product runs from
 * its sources through the tsx loader.
 */
export function buildProduct(folder: string): ProductBuild {
  const built = spawnSync(process.execPath, [path.join(server, 'scripts/build.mjs'), folder], {
    encoding: 'utf8',
  });
  if (built.status === 0) {
    return {
      nodeArgs: [path.join(folder, 'server.js')],
      description: 'the compiled bundle (npm run build -w apps/server) on plain node',
    };
  }
  return {
    nodeArgs: ['--import', 'tsx', path.join(server, 'src/server.ts')],
    description: `the sources through the tsx loader, the build having failed: ${built.stderr.trim().split('\n')[0]}`,
  };
}

/** The folder of a run's compiled product and embedded database, inside the package. */
export const workFolder = (name: string) => path.join(server, 'node_modules/.cache', name);

export interface EventLoopDelay {
  p50: number;
  p99: number;
  max: number;
}

/** A process under measurement, with the event-loop probe loaded into it. */
export interface Measured {
  instance: Instance;
  /** Resident memory now, MB. */
  rssMb(): number;
  /** The event-loop delay since the previous call (or the start), ms. */
  eventLoopDelay(): Promise<EventLoopDelay>;
  stop(): Promise<void>;
}

const PROBE_LINE = '{"eventLoopDelayMs":';

/**
 * With BENCH_CPU_PROFILE set to a folder, each process under measurement writes a CPU profile there
 * when it exits (node --cpu-prof), to see where its time went.
 */
const cpuProfile = () => {
  const folder = process.env.BENCH_CPU_PROFILE;
  return folder ? ['--cpu-prof', `--cpu-prof-dir=${folder}`] : [];
};

async function startMeasured(
  name: string,
  nodeArgs: string[],
  env: Record<string, string>,
): Promise<Measured> {
  const instance = await startInstance(name, env, {
    nodeArgs: ['--import', PROBE, ...cpuProfile(), ...nodeArgs],
    readyTimeoutMs: READY_TIMEOUT_MS,
  });
  const reports = () => instance.lines().filter((line) => line.startsWith(PROBE_LINE));
  return {
    instance,
    rssMb: () => {
      const status = readFileSync(`/proc/${instance.child.pid}/status`, 'utf8');
      return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN) / 1024;
    },
    eventLoopDelay: async () => {
      const before = reports().length;
      instance.child.kill('SIGUSR2');
      const { value } = await waitUntil(`the event-loop report of ${name}`, () => reports()[before], {
        timeoutMs: 5_000,
        intervalMs: 20,
      });
      return (JSON.parse(value) as { eventLoopDelayMs: EventLoopDelay }).eventLoopDelayMs;
    },
    stop: async () => {
      const status = await instance.stop('SIGTERM');
      if (status.code !== 0)
        throw new Error(`${name} exited with ${status.code ?? status.signal}:\n${instance.tail()}`);
    },
  };
}

/** Where the product and the reference apps keep their data. */
export type Storage = { databaseUrl: string; redisUrl?: string } | { dataDir: string };

/**
 * The product as production runs it (NODE_ENV=production, a staging site's sandbox payments), with
 * request logs off (LOG_LEVEL=warn), a call ceiling no run reaches (it is still counted, in Redis),
 * and no scheduled job, so that only the measured requests run.
 */
export async function startProduct(
  name: string,
  build: ProductBuild,
  storage: Storage,
  /** Settings of the bench's own (a SECRETS_KEY for its gateways' keys). */
  env: Record<string, string> = {},
): Promise<Measured> {
  const port = await freePort();
  return startMeasured(name, build.nodeArgs, {
    NODE_ENV: 'production',
    SANDBOX_PAYMENTS_IN_PRODUCTION: 'true',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: 'warn',
    TRUST_PROXY: 'true',
    RATE_LIMIT_PER_MINUTE: '1000000000',
    INACTIVE_ACCOUNTS_EVERY_MINUTES: '0',
    ORDERS_EVERY_MINUTES: '0',
    MAIL_EVERY_SECONDS: '0',
    WEB_DIST_DIR: NO_WEB_BUILD,
    ADMIN_DIST_DIR: NO_WEB_BUILD,
    SUBSCRIPTION_KEY: BENCH_SUBSCRIPTION_KEY,
    ...('dataDir' in storage
      ? { DATA_DIR: storage.dataDir }
      : { DATABASE_URL: storage.databaseUrl, ...(storage.redisUrl ? { REDIS_URL: storage.redisUrl } : {}) }),
    ...env,
  });
}

/** Fastify with `select 1` on a pg pool (given a URL) or on an in-memory PGlite. */
export async function startReference(name: string, databaseUrl?: string): Promise<Measured> {
  const port = await freePort();
  return startMeasured(name, [REFERENCE_APP], {
    HOST: '127.0.0.1',
    PORT: String(port),
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
}
