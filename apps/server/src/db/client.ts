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
}

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    const db = drizzlePg(pool, { schema }) as unknown as Database;
    const databaseUrl = options.databaseUrl;
    return {
      db,
      kind: 'postgres',
      migrate: () => migrateServer(databaseUrl),
      ping: async () => void (await db.execute(sql`select 1`)),
      close: () => pool.end(),
    };
  }
  if (!options.dataDir.startsWith('memory://')) mkdirSync(options.dataDir, { recursive: true });
  const client = await PGlite.create(options.dataDir);
  const embedded = drizzlePglite(client, { schema });
  const db = embedded as unknown as Database;
  return {
    db,
    kind: 'pglite',
    migrate: () => migrateEmbedded(embedded),
    ping: async () => void (await db.execute(sql`select 1`)),
    close: () => client.close(),
  };
}
