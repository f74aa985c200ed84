// `npm run bench:dashboard`: the back office's dashboard at scale. Seeds a million accounts, a
// million orders (most paid, each paid one with its payment, one in a hundred of them short) and
// 200,000 trials over the last 90 days, in a scratch database on the PostgreSQL server of
// TEST_DATABASE_URL (dropped at the end), then times each of the dashboard's queries
// and the whole dashboard, by turns, after the dashboard job has written its hours (its first run and
// a next one are timed too). Budget: 100 ms for each query (p95). Exits 1 when one is over.
import { sql } from 'drizzle-orm';
import { performance } from 'node:perf_hooks';
import { ATTENTION_MAIL_DAYS } from '@skyway/shared/schemas/admin/sales';
import type { Database } from '../src/db/client.ts';
import { figuresIn, hourSums, readSubscribers, rolledUntil } from '../src/modules/dashboard/repository.ts';
import { dailyFigures, dashboard, rollUpDashboard, windowsAt } from '../src/modules/dashboard/service.ts';
import { attentionCounts } from '../src/modules/sales/repository.ts';
import { createServerDatabase } from '../src/testing/test-database.ts';
import { openDatabase } from '../src/db/client.ts';

const quick = process.argv.includes('--quick');
const ACCOUNTS = quick ? 20_000 : 1_000_000;
const ORDERS = quick ? 20_000 : 1_000_000;
const TRIALS = quick ? 4_000 : 200_000;
const WARM_UP = 5;
const SAMPLES = quick ? 10 : 30;
const BUDGET_MS = 100;

/** Accounts, orders with payments, and trials spread over the last 90 days, in a few statements. */
async function seed(db: Database): Promise<void> {
  await db.execute(sql`
    insert into users (id, email, invite_code, created_at, expire_at, subscribe_type, connections)
    select gen_random_uuid(), 'account-' || n || '@example.com', 'C' || lpad(to_hex(n), 7, '0'),
      now() - (n * interval '90 days') / ${ACCOUNTS},
      case when n % 10 < 3 then now() + (n % 60) * interval '1 day' + interval '1 hour'
           when n % 10 < 6 then now() - (n % 60) * interval '1 day' end,
      case when n % 10 = 0 then 3 when n % 10 < 6 then 2 else 1 end, 1 + n % 3
    from generate_series(1, ${ACCOUNTS}) n`);
  await db.execute(sql`
    with buyers as (select id, row_number() over () as n from users)
    insert into orders (id, user_id, period, months, days, connections, unit_price, amount, currency,
      pay_method, provider, status, created_at, latest_pay_at, paid_at)
    select 'bench-' || g, b.id, 'month', 1, 31, 1, 2500, 2500, 'CNY', 'alipay',
      case when g % 2 = 0 then 'stripe' else 'sandbox' end,
      case when g % 5 = 0 then 'expired' else 'paid' end,
      now() - (g * interval '90 days') / ${ORDERS},
      now() - (g * interval '90 days') / ${ORDERS} + interval '30 minutes',
      case when g % 5 = 0 then null else now() - (g * interval '90 days') / ${ORDERS} + interval '1 minute' end
    from generate_series(1, ${ORDERS}) g join buyers b on b.n = 1 + g % ${ACCOUNTS}`);
  await db.execute(sql`
    insert into payments (order_id, provider, provider_payment_id, amount, currency, outcome, created_at)
    select id, provider, 'pay-' || id, amount, currency,
      case when right(id, 2) = '07' then 'amount_mismatch' else 'credited' end, paid_at
    from orders where status = 'paid'`);
  await db.execute(sql`
    insert into trial_claims (user_id, minutes, claimed_at)
    select id, 1440, created_at + interval '1 minute' from users
    where invite_code like 'C%' and ('x' || right(invite_code, 2))::bit(8)::int % 5 = 0
    limit ${TRIALS}`);
  await db.execute(sql`analyze`);
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
};

const scratch = await createServerDatabase();
const database = await openDatabase({ databaseUrl: scratch.url, dataDir: 'memory://' });
let failed = false;
try {
  await database.migrate();
  const { db } = database;
  const seeding = performance.now();
  await seed(db);
  const [counts] = (
    (await db.execute(sql`
      select (select count(*) from users)::int as users, (select count(*) from orders)::int as orders,
        (select count(*) from payments)::int as payments, (select count(*) from trial_claims)::int as trials`)) as {
      rows: unknown[];
    }
  ).rows as { users: number; orders: number; payments: number; trials: number }[];
  console.log(
    `bench:dashboard: seeded ${counts?.users} accounts, ${counts?.orders} orders, ${counts?.payments} payments, ` +
      `${counts?.trials} trials in ${((performance.now() - seeding) / 1000).toFixed(1)} s`,
  );
  const timedOnce = async (work: () => Promise<unknown>) => {
    const started = performance.now();
    const result = await work();
    return { ms: performance.now() - started, result };
  };
  const first = await timedOnce(() => rollUpDashboard(db, new Date()));
  console.log(
    `the dashboard job's first run (${JSON.stringify(first.result)}): ${(first.ms / 1000).toFixed(2)} s`,
  );
  const steady = await timedOnce(() => rollUpDashboard(db, new Date()));
  console.log(`the dashboard job's next run (${JSON.stringify(steady.result)}): ${steady.ms.toFixed(1)} ms`);

  const now = new Date();
  const starts = windowsAt(now, -480);
  const written = (await rolledUntil(db)) ?? now;
  const hourStarts = Object.fromEntries(
    Object.entries(starts).map(([name, start]) => [
      name,
      new Date(Math.ceil(start.getTime() / 3_600_000) * 3_600_000),
    ]),
  );
  const queries: [string, () => Promise<unknown>][] = [
    ['written hours, summed for each window', () => hourSums(db, hourStarts, written)],
    [
      'the live rest: every figure since the last written hour',
      () => figuresIn(db, { from: written, to: now }, false),
    ],
    ['subscribers by type (as counted by the job)', () => readSubscribers(db)],
    ['attention queue', () => attentionCounts(db, now, ATTENTION_MAIL_DAYS)],
    ['the whole dashboard (its queries at once)', () => dashboard(db, now, -480)],
    ['the 30-day chart, day by day', () => dailyFigures(db, now, -480, 30)],
  ];
  const samples = queries.map(() => [] as number[]);
  for (let round = 0; round < WARM_UP + SAMPLES; round++) {
    for (const [i, [, run]] of queries.entries()) {
      const started = performance.now();
      await run();
      if (round >= WARM_UP) samples[i]?.push(performance.now() - started);
    }
  }
  console.log(
    `\n${'query'.padEnd(58)} ${'min'.padStart(8)} ${'p50'.padStart(8)} ${'p95'.padStart(8)} ${'max'.padStart(8)}`,
  );
  for (const [i, [name]] of queries.entries()) {
    const values = samples[i] ?? [];
    const p95 = percentile(values, 95);
    const over = p95 > BUDGET_MS;
    failed ||= over;
    const ms = (value: number) => `${value.toFixed(1)} ms`.padStart(8);
    console.log(
      `${name.padEnd(58)} ${ms(Math.min(...values))} ${ms(percentile(values, 50))} ${ms(p95)} ` +
        `${ms(Math.max(...values))}  ${over ? `OVER ${BUDGET_MS} ms` : 'OK'}`,
    );
  }
  console.log(`\nbudget: p95 ≤ ${BUDGET_MS} ms for each query: ${failed ? 'FAIL' : 'OK'}`);
} finally {
  await database.close();
  await scratch.drop();
}
process.exit(failed ? 1 : 0);
