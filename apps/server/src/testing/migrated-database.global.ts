import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle } from 'drizzle-orm/pglite';
import type { TestProject } from 'vitest/node';
import { migrateEmbedded, migrateServer } from '../db/migrate.ts';
import { onServer, withDatabase } from './server-databases.ts';

/**
 * Migrates one database per run, before any test file starts, so that each file's fresh database
 * is a copy of it rather than a new one migrated again: a PGlite starts from a dump in a fraction
 * of the time its own initdb and migrations take, and PostgreSQL copies a template database.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (project.config.env?.TEST_DB === 'postgres') {
    const admin = process.env.TEST_DATABASE_URL;
    if (!admin) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
    const name = `skyway_template_${randomBytes(6).toString('hex')}`;
    await onServer(admin, `create database ${name}`);
    const drop = () => onServer(admin, `drop database if exists ${name} with (force)`);
    try {
      await migrateServer(withDatabase(admin, name));
    } catch (error) {
      await drop();
      throw error;
    }
    project.provide('migratedTemplate', name);
    return drop;
  }
  const folder = await mkdtemp(path.join(tmpdir(), 'skyway-pglite-'));
  const client = await PGlite.create('memory://', { extensions: { pg_trgm } });
  try {
    await migrateEmbedded(drizzle(client));
    const dump = path.join(folder, 'migrated.tar');
    await writeFile(dump, Buffer.from(await (await client.dumpDataDir('none')).arrayBuffer()));
    project.provide('migratedPglite', dump);
  } finally {
    await client.close();
  }
  return () => rm(folder, { recursive: true, force: true });
}
