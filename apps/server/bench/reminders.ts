// `npm run bench:reminders`: the expiry reminders job at scale. Seeds a million accounts, 30,000 of
// them due a reminder, in a scratch database on a PostgreSQL server (dropped at the end), runs the
// job with its mail going to a local SMTP server that counts what it receives, sends a code mail
// while the reminders wait, and prints the job's run time, the growth of the process's anonymous
// memory (RssAnon) during it, the most SMTP connections open at once, whether every reminder reached
// the SMTP server once, and the code mail's time to the SMTP server, each beside its goal (exits 1
// when one fails).
//
// Needs DATABASE_URL or TEST_DATABASE_URL: a PostgreSQL server on which it may create a database.
// `--quick`: 10,000 accounts, 1,000 of them due.
import { availableParallelism } from 'node:os';
import { createServerDatabase } from '../src/testing/test-database.ts';
import { scratchServerUrl } from '../src/testing/server-databases.ts';
import { loadAverage } from './api-run.ts';
import { type GoalRow, grouped, printGoals } from './goals.ts';
import { GOALS, type RemindersBenchFigures, runRemindersBench, SIZES } from './reminders-run.ts';

process.env.TEST_DATABASE_URL = scratchServerUrl('bench:reminders');
const quick = process.argv.includes('--quick');
const scratch = await createServerDatabase();
const settings = {
  databaseUrl: scratch.url,
  ...(quick ? SIZES.quick : SIZES.full),
  deliveryTimeoutMs: 30 * 60_000,
};
console.log(
  `bench:reminders${quick ? ' --quick' : ''}: ${grouped(settings.accounts)} accounts, ${grouped(settings.due)} ` +
    `due a reminder; ${availableParallelism()} cores, ${loadAverage()}`,
);

let figures: RemindersBenchFigures;
try {
  figures = await runRemindersBench(settings, (line) => console.log(line));
} finally {
  await scratch.drop();
}

const judged = (id: keyof typeof GOALS) => GOALS[id].holds(figures, settings);
const rows: GoalRow[] = [
  ['job run', `${figures.jobSeconds.toFixed(1)} s`, GOALS.jobSeconds.text, judged('jobSeconds')],
  [
    'memory growth (RssAnon) during the job',
    `+${figures.memoryGrowthMb.job.toFixed(1)} MB`,
    GOALS.memoryGrowthMb.text,
    judged('memoryGrowthMb'),
  ],
  [
    'heap kept after the job (after a full collection)',
    `+${figures.heapRetainedMb.toFixed(1)} MB`,
    GOALS.heapRetainedMb.text,
    judged('heapRetainedMb'),
  ],
  ['SMTP connections open at once', `${figures.smtpConnectionsAtOnce}`, GOALS.smtp.text, judged('smtp')],
  [
    'reminded / reached the SMTP server (with the code mail)',
    `${grouped(Object.values(figures.result.sent).reduce((a, b) => a + b, 0))} / ${grouped(figures.delivered)}`,
    GOALS.reminded.text,
    judged('reminded'),
  ],
  [
    `a code mail to SMTP, ${grouped(figures.code.queuedBehind)} reminders waiting`,
    `${figures.code.seconds.toFixed(2)} s`,
    GOALS.code.text,
    judged('code'),
  ],
  ['every reminder at the SMTP server after', `${figures.deliveredSeconds.toFixed(1)} s`, '—', undefined],
  [
    'memory growth after the job, until all mail arrived',
    `+${figures.memoryGrowthMb.delivery.toFixed(1)} MB`,
    '—',
    undefined,
  ],
];
if (!printGoals(rows)) process.exitCode = 1;
