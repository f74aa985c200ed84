import path from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate as migratePostgres } from 'drizzle-orm/node-postgres/migrator';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';

const migrationsFolder = path.resolve(import.meta.dirname, 'migrations');

// Any fixed number: every instance that starts at once waits on the same lock, so only one migrates.
const MIGRATION_LOCK_ID = 7_243_019;

export async function migrateEmbedded<T extends Record<string, unknown>>(
  db: PgliteDatabase<T>,
): Promise<void> {
  await migratePglite(db, { migrationsFolder });
}

/** On PostgreSQL several instances may start at once: an advisory lock lets one migrate at a time. */
export async function migrateServer(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    await migratePostgres(drizzle(client), { migrationsFolder });
  } finally {
    await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => undefined);
    await client.end();
  }
}
