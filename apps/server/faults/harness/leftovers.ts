import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';

/**
 * What a run created outside its own process: server processes and databases. Each scenario file
 * releases its own when it ends; this record is for when it cannot (the run was interrupted, a
 * worker died): the run's global teardown, or the next run's setup, finishes the job.
 */

const DIRECTORY = path.join(tmpdir(), 'skyway-fault-suite');
/** Set on every instance: a process is only ever killed if it carries its run's mark. */
export const RUN_MARK = 'SKYWAY_FAULT_RUN';

type Entry = { process: number } | { database: string };

const recordOf = (run: string) => path.join(DIRECTORY, `${run}.jsonl`);

/** A new run's id; it starts with the pid of the process that owns the run, to tell stale runs apart. */
export const newRunId = () => `${process.pid}-${Date.now().toString(36)}`;

export function noteLeftover(run: string, entry: Entry): void {
  mkdirSync(DIRECTORY, { recursive: true });
  appendFileSync(recordOf(run), `${JSON.stringify(entry)}\n`);
}

function carriesMark(pid: number, run: string): boolean {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(`${RUN_MARK}=${run}`);
  } catch {
    return false;
  }
}

async function dropDatabases(adminUrl: string, names: string[]): Promise<void> {
  if (names.length === 0) return;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    for (const name of names) {
      if (/^skyway_fault_[0-9a-f]+$/.test(name))
        await client.query(`drop database if exists ${name} with (force)`);
    }
  } finally {
    await client.end();
  }
}

function entriesOf(run: string): Entry[] {
  try {
    return readFileSync(recordOf(run), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Entry);
  } catch {
    return [];
  }
}

function killMarked(run: string, entries: Entry[]): void {
  for (const entry of entries) {
    if ('process' in entry && carriesMark(entry.process, run)) process.kill(entry.process, 'SIGKILL');
  }
}

const databasesOf = (entries: Entry[]) =>
  entries.flatMap((entry) => ('database' in entry ? [entry.database] : []));

/** Kills the run's marked processes still alive and drops its databases, then forgets the run. */
export async function releaseRun(run: string, adminUrl: string): Promise<void> {
  const entries = entriesOf(run);
  killMarked(run, entries);
  await dropDatabases(adminUrl, databasesOf(entries));
  rmSync(recordOf(run), { force: true });
}

/**
 * releaseRun without awaiting anything, for a run interrupted by a signal (its process may exit
 * before a promise settles): the databases are dropped by a short-lived child process.
 */
export function releaseRunNow(run: string, adminUrl: string): void {
  const entries = entriesOf(run);
  killMarked(run, entries);
  const databases = databasesOf(entries);
  if (databases.length > 0) {
    spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '-e',
        `import(${JSON.stringify(import.meta.filename)}).then((m) => m.dropDatabasesFromArgs())`,
      ],
      {
        env: { ...process.env, FAULT_ADMIN_URL: adminUrl, FAULT_DATABASES: databases.join(',') },
        stdio: 'ignore',
        timeout: 15_000,
      },
    );
  }
  rmSync(recordOf(run), { force: true });
}

/** The child process of releaseRunNow. */
export async function dropDatabasesFromArgs(): Promise<void> {
  await dropDatabases(process.env.FAULT_ADMIN_URL ?? '', (process.env.FAULT_DATABASES ?? '').split(','));
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Releases what earlier runs left behind, if the process that owned them is gone. */
export async function releaseStaleRuns(adminUrl: string): Promise<void> {
  let files: string[];
  try {
    files = readdirSync(DIRECTORY);
  } catch {
    return;
  }
  for (const file of files) {
    const run = file.replace(/\.jsonl$/, '');
    const owner = Number(run.split('-')[0]);
    if (Number.isInteger(owner) && !isAlive(owner)) await releaseRun(run, adminUrl);
  }
}
