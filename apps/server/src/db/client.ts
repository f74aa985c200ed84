import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { migrateEmbedded, migrateServer } from './migrate.ts';
import * as schema from './schema/index.ts';

export type Schema = typeof schema;

/** The Drizzle database, whichever driver is behind it: repositories take this as their first argument. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  /** Brings the schema up to date with the migrations. */
  migrate(): Promise<void>;
  /** Runs `select 1`; throws when the database cannot answer. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** A PostgreSQL URL; without one, PGlite runs embedded in `dataDir`. */
  databaseUrl?: string;
  /** PGlite's data directory; `memory://` keeps it in memory. */
  dataDir: string;
  /** Told when an idle pooled connection dies (a server restart); the pool replaces it by itself. */
  onConnectionError?: (error: Error) => void;
}

function handle(
  db: Database,
  kind: DatabaseHandle['kind'],
  parts: Pick<DatabaseHandle, 'migrate' | 'close'>,
) {
  return { db, kind, ...parts, ping: async () => void (await db.execute(sql`select 1`)) };
}

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  const { databaseUrl, dataDir } = options;
  if (databaseUrl) {
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
    // Unhandled, this event would end the process.
    pool.on('error', options.onConnectionError ?? (() => undefined));
    return handle(drizzlePg(pool, { schema }) as unknown as Database, 'postgres', {
      migrate: () => migrateServer(databaseUrl),
      close: () => pool.end(),
    });
  }
  if (!dataDir.startsWith('memory://')) mkdirSync(dataDir, { recursive: true });
  const client = await PGlite.create(dataDir);
  const embedded = drizzlePglite(client, { schema });
  return handle(embedded as unknown as Database, 'pglite', {
    migrate: () => migrateEmbedded(embedded),
    close: () => client.close(),
  });
}
