import { eq } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
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
