import { randomBytes } from 'node:crypto';
import { type DatabaseHandle, openDatabase } from '../db/client.ts';
import { onServer, withDatabase } from './server-databases.ts';

/** Which database the suite runs on: the vitest project sets TEST_DB (PGlite unless told). */
export const testDatabaseKind = process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite';

function serverUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
  return url;
}

/** A fresh database on the PostgreSQL server, dropped again by the handle's close(). */
export async function createServerDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = serverUrl();
  const name = `skyway_test_${randomBytes(6).toString('hex')}`;
  await onServer(admin, `create database ${name}`);
  return {
    url: withDatabase(admin, name),
    drop: () => onServer(admin, `drop database if exists ${name} with (force)`),
  };
}

/**
 * A new, migrated, empty database for one test file: in-memory PGlite, or its own database on the
 * PostgreSQL server when the suite runs there.
 */
export async function openTestDatabase(): Promise<DatabaseHandle> {
  if (testDatabaseKind === 'pglite') {
    const handle = await openDatabase({ dataDir: 'memory://' });
    await handle.migrate();
    return handle;
  }
  const created = await createServerDatabase();
  const handle = await openDatabase({ databaseUrl: created.url, dataDir: 'memory://' });
  await handle.migrate();
  return {
    ...handle,
    close: async () => {
      await handle.close();
      await created.drop();
    },
  };
}

/**
 * Two instances of the app's database layer on one fresh, migrated PostgreSQL database, as two
 * servers of one site would have: for jobs that must do their work once between them.
 */
export async function openTwoInstances(): Promise<{
  /** The database's address, for a test's own connection. */
  url: string;
  first: DatabaseHandle;
  second: DatabaseHandle;
  close(): Promise<void>;
}> {
  const { url, drop } = await createServerDatabase();
  const first = await openDatabase({ databaseUrl: url, dataDir: 'memory://' });
  const second = await openDatabase({ databaseUrl: url, dataDir: 'memory://' });
  await first.migrate();
  return {
    url,
    first,
    second,
    close: async () => {
      await first.close();
      await second.close();
      await drop();
    },
  };
}
