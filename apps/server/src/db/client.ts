import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { lockDataDirectory } from './data-dir-lock.ts';
import { type AccountChanges, listenForAccountChanges, NOTICES_OPTION } from './account-changes.ts';
import { isTransientDatabaseError } from './errors.ts';
import { migrateEmbedded, migrateServer } from './migrate.ts';
import { withPreparedStatements } from './pglite-statements.ts';
import * as schema from './schema/index.ts';

export type Schema = typeof schema;

/** The Drizzle database, whichever driver is behind it: repositories take this as their first argument. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  /** Brings the schema up to date with the migrations. */
  migrate(): Promise<void>;
  /** The pool's connections now (PostgreSQL only): for the operator's metrics. */
  poolStats(): PoolStats | undefined;
  /**
   * Changes to accounts as they happen, on PostgreSQL, where other instances and tools write too.
   * The embedded database has none: it is read fast enough without a cache, by one process.
   */
  accountChanges?: AccountChanges;
  close(): Promise<void>;
}

export interface PoolStats {
  total: number;
  idle: number;
  /** Requests waiting for a connection: above zero for long, the pool is too small or the server slow. */
  waiting: number;
}

export interface DatabaseOptions {
  /** A PostgreSQL URL; without one, PGlite runs embedded in `dataDir`. */
  databaseUrl?: string;
  /** PGlite's data directory; `memory://` keeps it in memory. */
  dataDir: string;
  /** A dump of a data directory (`dumpDataDir`) for an in-memory PGlite to start from. */
  loadDataDir?: Blob;
  /**
   * What this process is, named to a second process the embedded database refuses while this one
   * has it open ("the server", "npm run settings"); by default the script's file name.
   */
  holder?: string;
  /** Told when a pooled connection dies (a restart, a failover); the pool replaces it by itself. */
  onConnectionError?: (error: Error) => void;
}

/** Connections per instance; PostgreSQL's default of 100 leaves room for about eight instances and tools. */
const POOL_SIZE = 10;
/** How long a request waits for a connection before it fails with a 503 instead of hanging. */
const CONNECT_TIMEOUT_MS = 5_000;

function handle(
  db: Database,
  kind: DatabaseHandle['kind'],
  parts: Pick<DatabaseHandle, 'migrate' | 'close' | 'poolStats' | 'accountChanges'>,
) {
  return { db, kind, ...parts };
}

/**
 * Drizzle's transaction over a pool leaks the connection when `begin` itself fails, and hands a
 * connection that broke mid-transaction back to the pool as if it were healthy. Each transaction
 * here checks out its own connection, runs Drizzle's transaction on it, and gives it back
 * discarded when the connection failed, so a failover leaves the pool full of live connections.
 */
function transactionsOwningTheirConnection(pool: pg.Pool, db: Database): Database {
  // Building Drizzle over a connection costs about 0.1 ms: once per pooled connection is enough.
  const onConnection = new WeakMap<pg.PoolClient, Database>();
  const over = (connection: pg.PoolClient): Database => {
    let single = onConnection.get(connection);
    if (!single) {
      single = drizzlePg(connection, { schema }) as unknown as Database;
      onConnection.set(connection, single);
    }
    return single;
  };
  db.transaction = async (work, config) => {
    const connection = await pool.connect();
    let broken = false;
    try {
      return await over(connection).transaction(work, config);
    } catch (error) {
      broken = isTransientDatabaseError(error);
      throw error;
    } finally {
      connection.release(broken);
    }
  };
  return db;
}

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  const { databaseUrl, dataDir } = options;
  if (databaseUrl) {
    const pool = new pg.Pool({
      connectionString: databaseUrl,
      max: POOL_SIZE,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      options: NOTICES_OPTION,
    });
    const onError = options.onConnectionError ?? (() => undefined);
    const accountChanges = listenForAccountChanges(databaseUrl, onError);
    // Unhandled, either event would end the process: the pool's covers idle connections only, so
    // every connection gets its own listener for the time it is checked out.
    pool.on('error', onError);
    pool.on('connect', (connection) => {
      connection.on('error', onError);
      accountChanges.watchConnection(connection);
    });
    const db = transactionsOwningTheirConnection(pool, drizzlePg(pool, { schema }) as unknown as Database);
    return handle(db, 'postgres', {
      migrate: () => migrateServer(databaseUrl),
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      accountChanges,
      close: async () => {
        await accountChanges.close();
        await pool.end();
      },
    });
  }
  let release = (): void => undefined;
  if (!dataDir.startsWith('memory://')) {
    mkdirSync(dataDir, { recursive: true });
    // Before PGlite reads a byte: a second process is refused without touching the files.
    release = lockDataDirectory(dataDir, options.holder ?? path.basename(process.argv[1] ?? 'node'));
  }
  // pg_trgm: the back office's search by part of an address (migration 0010).
  let client;
  try {
    client = await PGlite.create(dataDir, { extensions: { pg_trgm }, loadDataDir: options.loadDataDir });
  } catch (error) {
    release();
    throw error;
  }
  // Drizzle's driver uses only `query` and `transaction`, which the wrapper provides.
  const embedded = drizzlePglite(withPreparedStatements(client) as PGlite, { schema });
  return handle(embedded as unknown as Database, 'pglite', {
    migrate: () => migrateEmbedded(embedded),
    poolStats: () => undefined,
    close: async () => {
      try {
        await client.close();
      } finally {
        release();
      }
    },
  });
}
