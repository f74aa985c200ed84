import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { migrateServer } from '../../src/db/migrate.ts';
import { onServer, withDatabase } from '../../src/testing/server-databases.ts';

/** A database of its own on the PostgreSQL server, for one scenario file's instances. */
export interface FaultDatabase {
  name: string;
  /** For the instances' DATABASE_URL. */
  url: string;
  /** Runs SQL on this database over the suite's own connection (never one of the instances'). */
  query<Row extends object>(text: string, params?: unknown[]): Promise<Row[]>;
  /** How many backends of this database are open, the suite's own left out. */
  liveBackends(): Promise<number>;
  /** Terminates every backend of this database but the suite's own; returns how many. */
  terminateBackends(): Promise<number>;
  /** Closes the suite's connection and drops the database with force. */
  drop(): Promise<void>;
}

/**
 * Creates `skyway_fault_<random>`, brings it up to date with the server's own migrations (so a
 * scenario can seed accounts before its instances start; they then find nothing to migrate), and
 * opens the suite's connection to it. Terminations skip that connection, so the suite can always
 * check what the instances wrote.
 */
export async function createFaultDatabase(
  adminUrl: string,
  /** Told the name as soon as the database exists, before anything else can fail. */
  onCreated: (name: string) => void,
): Promise<FaultDatabase> {
  const name = `skyway_fault_${randomBytes(6).toString('hex')}`;
  await onServer(adminUrl, `create database ${name}`);
  onCreated(name);
  const url = withDatabase(adminUrl, name);
  const own = new pg.Client({ connectionString: url });
  // The suite's own connection is never terminated, but an error event must not end the test run.
  own.on('error', () => undefined);
  try {
    await migrateServer(url);
    await own.connect();
  } catch (error) {
    await onServer(adminUrl, `drop database if exists ${name} with (force)`);
    throw error;
  }
  let dropped = false;
  return {
    name,
    url,
    query: async <Row extends object>(text: string, params: unknown[] = []) =>
      (await own.query<Row>(text, params)).rows,
    liveBackends: async () => {
      const result = await own.query<{ count: number }>(
        'select count(*)::int as count from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
        [name],
      );
      return result.rows[0]?.count ?? 0;
    },
    terminateBackends: async () => {
      const result = await own.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
        [name],
      );
      return result.rowCount ?? 0;
    },
    drop: async () => {
      if (dropped) return;
      dropped = true;
      await own.end().catch(() => undefined);
      await onServer(adminUrl, `drop database if exists ${name} with (force)`);
    },
  };
}
