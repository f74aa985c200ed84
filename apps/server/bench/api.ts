// `npm run bench:api`: the figures of the product under load next to plain Fastify apps measured in
// the same run. Starts the product as production runs it (the compiled server, a process of its own)
// on PostgreSQL with Redis and on the embedded database, seeded with a million accounts, their orders
// and an inviter's 10,000 invitations; measures the reference apps and the product by turns, three
// times; prints each figure's min / median / max and its ratio to its reference, then a table with
// the goals, and exits 1 when a goal fails.
//
// Needs DATABASE_URL or TEST_DATABASE_URL: a PostgreSQL server on which it may create the database
// `bench_api` (dropped at the end; nothing else on the server is touched). REDIS_URL (default
// redis://127.0.0.1:6379) is used on database 13 unless it names one. `--quick`: 10,000 accounts,
// one repeat, short runs.
import { availableParallelism } from 'node:os';
import type { Effort } from './api-measures.ts';
import { allGoalsHold, describeFigures, summaryTable } from './api-report.ts';
import { loadAverage, runApiBench } from './api-run.ts';
import { scratchServerUrl } from '../src/testing/server-databases.ts';
import { benchRedisUrl, shownUrl } from './bench-place.ts';

const FULL: Effort = {
  connections: 64,
  warmUpMs: 3_000,
  loadMs: 10_000,
  samples: 40,
  burst: 40,
  burstMs: 3_000,
  settleMs: 3_000,
};
const QUICK: Effort = { ...FULL, warmUpMs: 500, loadMs: 2_000, samples: 10, burstMs: 1_000, settleMs: 1_000 };

const adminUrl = scratchServerUrl('bench:api');
const quick = process.argv.includes('--quick');
const settings = {
  adminUrl,
  databaseName: 'bench_api',
  redisUrl: benchRedisUrl(),
  accounts: quick ? 10_000 : 1_000_000,
  repeats: quick ? 1 : 3,
  effort: quick ? QUICK : FULL,
};

console.log(
  `bench:api${quick ? ' --quick' : ''}: ${settings.accounts.toLocaleString('en-US')} accounts, ${settings.repeats} ` +
    `repeat(s), ${settings.effort.connections} connections for ${settings.effort.loadMs / 1000} s per load; ` +
    `${availableParallelism()} cores, ${loadAverage()}`,
);
console.log(
  `PostgreSQL ${shownUrl(adminUrl)} (database ${settings.databaseName}), Redis ${shownUrl(settings.redisUrl)}`,
);
const results = await runApiBench(settings, (line) => console.log(line));
console.log(`\nfinished (${loadAverage()})\n`);
for (const line of describeFigures(results)) console.log(line);
console.log('');
for (const line of summaryTable(results)) console.log(line);
if (!allGoalsHold(results)) process.exitCode = 1;
