// `npm run bench:inactive`: the inactive-accounts job at scale. Seeds a million accounts, 200,000 of
// them due a warning, in a scratch database on a PostgreSQL server (dropped at the end), runs the job
// with its mail going to a local SMTP server that counts what it receives, and prints the job's run
// time and the growth of the process's anonymous memory (RssAnon) during it, the most SMTP connections
// open at once, and whether every warning reached the SMTP server once, each beside its goal (exits 1
// when one fails); then, without a goal, the memory growth from the job's end until every warning had
// arrived, how long that took, and the time of a run made before the accounts due a warning were
// written, which finds nobody to warn.
//
// Memory is counted from a full garbage collection just before the job (the script runs node with
// --expose-gc), so that garbage collected during the run hides no growth.
//
// Needs DATABASE_URL or TEST_DATABASE_URL: a PostgreSQL server on which it may create a database.
// `--quick`: 10,000 accounts, 2,500 of them due a warning.
import { availableParallelism } from 'node:os';
import { createServerDatabase } from '../src/testing/test-database.ts';
import { loadAverage } from './api-run.ts';
import { GOALS, type InactiveBenchFigures, runInactiveBench, SIZES } from './inactive-accounts-run.ts';
import { scratchServerUrl } from '../src/testing/server-databases.ts';

const adminUrl = scratchServerUrl('bench:inactive');
// The scratch database is made on the server this names.
process.env.TEST_DATABASE_URL = adminUrl;

const quick = process.argv.includes('--quick');
const scratch = await createServerDatabase();
const settings = {
  databaseUrl: scratch.url,
  ...(quick ? SIZES.quick : SIZES.full),
  deliveryTimeoutMs: 30 * 60_000,
};
console.log(
  `bench:inactive${quick ? ' --quick' : ''}: ${settings.accounts.toLocaleString('en-US')} accounts, ` +
    `${settings.toWarn.toLocaleString('en-US')} due a warning; ${availableParallelism()} cores, ${loadAverage()}`,
);

let figures: InactiveBenchFigures;
try {
  figures = await runInactiveBench(settings, (line) => console.log(line));
} finally {
  await scratch.drop();
}

const rows: [string, string, keyof typeof GOALS | undefined][] = [
  ['job run', `${figures.jobSeconds.toFixed(1)} s`, 'jobSeconds'],
  [
    'memory growth (RssAnon) during the job',
    `+${figures.memoryGrowthMb.job.toFixed(1)} MB`,
    'memoryGrowthMb',
  ],
  [
    'the same after it, until all mail arrived',
    `+${figures.memoryGrowthMb.delivery.toFixed(1)} MB`,
    undefined,
  ],
  ['SMTP connections open at once', `${figures.smtpConnectionsAtOnce}`, 'smtpConnectionsAtOnce'],
  [
    'warned / reached the SMTP server',
    `${figures.result.warned.toLocaleString('en-US')} / ${figures.delivered.toLocaleString('en-US')}`,
    'warned',
  ],
  ['every warning at the SMTP server after', `${figures.deliveredSeconds.toFixed(1)} s`, undefined],
  ['a run with nobody to warn', `${(figures.idleRunSeconds * 1000).toFixed(0)} ms`, undefined],
];
console.log(`\nfinished (${loadAverage()})\n`);
let failed = false;
for (const [measure, value, goalId] of rows) {
  const goal = goalId ? GOALS[goalId] : undefined;
  const holds = goal?.holds(figures, settings);
  if (holds === false) failed = true;
  const verdict = goal ? `goal ${goal.text}: ${holds ? 'OK' : 'FAILED'}` : '';
  console.log(`${measure.padEnd(40)} ${value.padStart(18)}  ${verdict}`);
}
if (failed) process.exitCode = 1;
