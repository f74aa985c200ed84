import { eq } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { preparedStatement } from '../db/prepared.ts';
import { jobRuns, type JobRunRow } from '../db/schema/index.ts';

export interface JobRun {
  name: string;
  startedAt: Date;
  finishedAt: Date;
  result: unknown;
}

/** Keeps only the latest run of each job: the operator asks "when did it last run, and what did it do?". */
export async function recordJobRun(db: Database, run: JobRun): Promise<void> {
  const values = { lastStartedAt: run.startedAt, lastFinishedAt: run.finishedAt, lastResult: run.result };
  await db
    .insert(jobRuns)
    .values({ name: run.name, ...values })
    .onConflictDoUpdate({ target: jobRuns.name, set: values });
}

export async function findJobRun(db: Database, name: string): Promise<JobRunRow | undefined> {
  const [row] = await db.select().from(jobRuns).where(eq(jobRuns.name, name)).limit(1);
  return row;
}

const lastFinishedStatement = preparedStatement((db) =>
  db
    .select({ name: jobRuns.name, lastFinishedAt: jobRuns.lastFinishedAt })
    .from(jobRuns)
    .prepare('job_last_finished'),
);

/**
 * When each of `names` last finished on any instance (null: never), in one round trip: `/healthz`
 * asks it on every probe, and its answering is the probe of the database.
 */
export async function lastFinishedJobs(
  db: Database,
  names: readonly string[],
): Promise<Record<string, Date | null>> {
  const rows = await lastFinishedStatement(db).execute();
  const finished = new Map(rows.map((row) => [row.name, row.lastFinishedAt]));
  return Object.fromEntries(names.map((name) => [name, finished.get(name) ?? null]));
}
