import type { TestProject } from 'vitest/node';
import { newRunId, releaseRun, releaseRunNow, releaseStaleRuns } from './harness/leftovers.ts';
import { faultSettings } from './harness/settings.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** This run's id: marks its server processes and names its record of what to release. */
    faultRun: string;
  }
}

/**
 * Fails the run at once, with what to set, when there is no PostgreSQL or Redis to use; clears
 * what an interrupted earlier run left behind; and at the end releases whatever this run's
 * scenario files could not (a worker that died, an interrupted run).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const { databaseUrl } = faultSettings();
  await releaseStaleRuns(databaseUrl);
  const run = newRunId();
  project.provide('faultRun', run);
  // An interrupted run skips the teardown below.
  const interrupted = () => releaseRunNow(run, databaseUrl);
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  return async () => {
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
    await releaseRun(run, databaseUrl);
  };
}
