import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../db/client.ts';
import { onServer, withDatabase } from './server-databases.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A file holding the dump of a migrated PGlite data directory, for the PGlite project. */
    migratedPglite: string;
    /** A migrated database on the PostgreSQL server, for the postgres project to copy. */
    migratedTemplate: string;
  }
}

/** Which database the suite runs on: the vitest project sets TEST_DB (PGlite unless told). */
export const testDatabaseKind = process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite';

function serverUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
  return url;
}

/**
 * A fresh database on the PostgreSQL server, dropped again by the handle's close(): empty, or a copy
 * of `template`.
 */
export async function createServerDatabase(
  template?: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = serverUrl();
  const name = `skyway_test_${randomBytes(6).toString('hex')}`;
  await onServer(admin, `create database ${name}${template ? ` template ${template}` : ''}`);
  return {
    url: withDatabase(admin, name),
    drop: () => onServer(admin, `drop database if exists ${name} with (force)`),
  };
}

/** The migrated PGlite database the run made first, as a dump PGlite loads. */
const migratedDump = async () => new Blob([await readFile(inject('migratedPglite'))]);

/**
 * A new folder holding a migrated, empty embedded database, for a server process or a command to
 * open as its DATA_DIR: a copy of the one the run migrated first, so that the process starts as
 * quickly as on an installed site rather than making the database and running every migration.
 */
export async function migratedDataDir(prefix: string): Promise<{ dir: string; remove(): void }> {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  const handle = await openDatabase({ dataDir: dir, loadDataDir: await migratedDump() });
  await handle.close();
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * A new, migrated, empty database for one test file: in-memory PGlite, or its own database on the
 * PostgreSQL server when the suite runs there. Each is a copy of the database the run migrated
 * first (migrated-database.global.ts).
 */
export async function openTestDatabase(): Promise<DatabaseHandle> {
  if (testDatabaseKind === 'pglite') {
    return openDatabase({ dataDir: 'memory://', loadDataDir: await migratedDump() });
  }
  const created = await createServerDatabase(inject('migratedTemplate'));
  const handle = await openDatabase({ databaseUrl: created.url, dataDir: 'memory://' });
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
  const { url, drop } = await createServerDatabase(inject('migratedTemplate'));
  const first = await openDatabase({ databaseUrl: url, dataDir: 'memory://' });
  const second = await openDatabase({ databaseUrl: url, dataDir: 'memory://' });
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
