import { and, desc, eq, lt, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { preparedStatement } from '../../db/prepared.ts';
import { rowsOf } from '../../db/rows.ts';
import { jobRunLog, type JobRunLogRow, jobRuns, type JobRunRow } from '../../db/schema/index.ts';

/** A run of a scheduled job as the log keeps it: when it started and ended, and what it did or why it failed. */
export interface FinishedRun {
  name: string;
  startedAt: Date;
  finishedAt: Date;
  succeeded: boolean;
  result?: unknown;
  error?: string;
}

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

/** Runs kept per job in the log: a job that runs every few seconds keeps minutes, a daily one months. */
export const RUNS_KEPT = 100;

/** Logs a finished run, and forgets the job's runs beyond the latest RUNS_KEPT. */
export async function logJobRun(db: Database, run: FinishedRun): Promise<void> {
  const [row] = await db
    .insert(jobRunLog)
    .values({
      name: run.name,
      startedAt: run.startedAt,
      finishedAt: run.finishedAt,
      succeeded: run.succeeded,
      result: run.result ?? null,
      error: run.error ?? null,
    })
    .returning({ id: jobRunLog.id });
  if (!row || row.id % 10 !== 0) return;
  // One run in ten trims: the log holds between RUNS_KEPT and RUNS_KEPT + 10 runs of a job.
  const oldest = db
    .select({ id: jobRunLog.id })
    .from(jobRunLog)
    .where(eq(jobRunLog.name, run.name))
    .orderBy(desc(jobRunLog.id))
    .limit(1)
    .offset(RUNS_KEPT - 1);
  await db.delete(jobRunLog).where(and(eq(jobRunLog.name, run.name), lt(jobRunLog.id, sql`(${oldest})`)));
}

/** The latest runs of each of the jobs, newest first. */
export async function latestJobRuns(
  db: Database,
  names: readonly string[],
  runs: number,
): Promise<Record<string, JobRunLogRow[]>> {
  const lists = await Promise.all(
    names.map((name) =>
      db.select().from(jobRunLog).where(eq(jobRunLog.name, name)).orderBy(desc(jobRunLog.id)).limit(runs),
    ),
  );
  return Object.fromEntries(names.map((name, i) => [name, lists[i] ?? []]));
}

/** The jobs whose two latest runs, on any instance, both failed (staff alerts). */
export async function jobsFailingTwice(db: Database): Promise<string[]> {
  const rows = rowsOf<{ name: string }>(
    await db.execute(sql`
      select name from (
        select name, succeeded, row_number() over (partition by name order by id desc) as rank
        from ${jobRunLog}
      ) latest
      where rank <= 2
      group by name
      having count(*) filter (where not succeeded) = 2`),
  );
  return rows.map((row) => row.name);
}
