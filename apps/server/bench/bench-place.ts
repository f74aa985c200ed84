import { rmSync } from 'node:fs';
import type { SQL } from 'drizzle-orm';
import { type Database, type DatabaseHandle, openDatabase } from '../src/db/client.ts';
import { rowsOf } from '../src/db/rows.ts';
import { onServer, scratchServerUrl, withDatabase } from '../src/testing/server-databases.ts';
import { type Storage, workFolder } from './api-processes.ts';

/** Redis database of the benches' call ceilings and counters, unless REDIS_URL names one. */
export const BENCH_REDIS_DATABASE = 13;

export function benchRedisUrl(): string {
  const url = new URL(process.env.REDIS_URL || 'redis://127.0.0.1:6379');
  if (url.pathname === '' || url.pathname === '/') url.pathname = `/${BENCH_REDIS_DATABASE}`;
  return url.toString();
}

/** The URL without its password, to say where the run went. */
export function shownUrl(text: string): string {
  const url = new URL(text);
  url.password = '';
  return url.toString();
}

/** Where a bench's product runs: its database (and, on PostgreSQL, Redis for the limits). */
export interface BenchPlace {
  /** Said with the figures. */
  description: string;
  storage: Storage;
  /** The product's database, opened by the bench (to seed it, and to read it afterwards). */
  open(): Promise<DatabaseHandle>;
  drop(): Promise<void>;
}

/**
 * A fresh place for a bench: a scratch database `database` on the PostgreSQL server of
 * `TEST_DATABASE_URL` / `DATABASE_URL` (limits in Redis), or with `embedded` a fresh folder for PGlite
 * (limits in process).
 */
export async function benchPlace(options: {
  bench: string;
  database: string;
  embedded: boolean;
}): Promise<BenchPlace> {
  if (options.embedded) {
    const dataDir = workFolder(`${options.database.replace(/_/g, '-')}-data`);
    rmSync(dataDir, { recursive: true, force: true });
    return {
      description: `the embedded database (PGlite) in ${dataDir}, limits counted in process`,
      storage: { dataDir },
      open: () => openDatabase({ dataDir }),
      drop: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const adminUrl = scratchServerUrl(options.bench);
  await onServer(adminUrl, `drop database if exists ${options.database} with (force)`);
  await onServer(adminUrl, `create database ${options.database}`);
  const databaseUrl = withDatabase(adminUrl, options.database);
  const redis = benchRedisUrl();
  return {
    description: `PostgreSQL ${shownUrl(databaseUrl)}, limits counted in Redis ${shownUrl(redis)}`,
    storage: { databaseUrl, redisUrl: redis },
    open: () => openDatabase({ databaseUrl, dataDir: 'memory://' }),
    drop: () => onServer(adminUrl, `drop database if exists ${options.database} with (force)`),
  };
}

/** The place's database migrated and seeded by `seed`, then closed (for the product to open): what `seed` answers. */
export async function seedPlace<T>(place: BenchPlace, seed: (db: Database) => Promise<T>): Promise<T> {
  const handle = await place.open();
  try {
    await handle.migrate();
    return await seed(handle.db);
  } finally {
    await handle.close();
  }
}

/**
 * The one row `query` answers in the place's database, opened for it and closed after: what the
 * product left there once it has stopped.
 */
export async function readRow<T>(place: BenchPlace, query: SQL): Promise<T> {
  const handle = await place.open();
  try {
    const [row] = rowsOf<T>(await handle.db.execute(query));
    if (!row) throw new Error('the query answered no row');
    return row;
  } finally {
    await handle.close();
  }
}
