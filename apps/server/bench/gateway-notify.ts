// `npm run bench:notify`: the payment gateways' asynchronous notifies at the issue's rate. Seeds
// customers with live access and their device slots, each with one unpaid order (a month at their
// connections) through one of two gateways, with their keys sealed as the back office seals them:
// an Epay one (nine orders in ten) and a USDT (EPUSDT) one. Starts the product as production runs it
// (the compiled server, a process of its own) and sends each order's notify, signed with its
// gateway's key, as the gateway would (Epay: a form POST to `/pay/epay/:id/notify`; USDT: JSON to
// `/pay/usdt/:id/notify`), at 1,000 distinct orders a second, due at a steady pace whatever the
// server does (an open loop: latency counted from when each notify was due, so that a server falling
// behind is not hidden), first a warm-up, then the measured window. One order in ten has its notify
// sent twice at once, on two connections (a gateway retrying before the first delivery was answered).
//
// The notify routes allow 600 notifies a minute from one address (gateway-notify.ts): 1,000 a
// second, sustained, takes at least 100 sending addresses, so the notifies come from that many (and
// a tenth more for the duplicates) of the benchmarking range, as the load balancer reports them
// (X-Forwarded-For; the product trusts its proxy, as behind one): each address stays within the
// limit, which is counted for every notify as in production and refuses none.
//
// Then stops the product (SIGTERM) and checks in the database that every order notified is paid with
// exactly one payment (credited) and one purchase in the expiry ledger, the account's expiry moved
// by the order's days once; that the orders not notified are untouched; and that no notify was
// refused. Prints the figures beside their goals (p99 ≤ 50 ms, every order credited exactly once)
// and exits 1 when one fails.
//
// On PostgreSQL by default: the server of DATABASE_URL, else TEST_DATABASE_URL, on which it creates
// the database `bench_notify` (dropped at the end), with the product's limits counted in Redis
// (REDIS_URL, default redis://127.0.0.1:6379, database 13 unless it names one). `--embedded`, or
// neither URL set: on the embedded database (PGlite) instead, in a folder under node_modules/.cache,
// limits counted in process. `--quick`: a shorter window. `--rate=N`: N distinct orders a second
// instead of the goal's 1,000 (the p99 goal is then not met, whatever the figure).
import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { NOTIFY_PER_MINUTE } from '../src/modules/payments/gateway-notify.ts';
import { type LoadFigures, openLoop, type RequestSpec } from './api-load.ts';
import { buildProduct, type Measured, startProduct, workFolder } from './api-processes.ts';
import { loadAverage } from './api-run.ts';
import { benchPlace, readRow, seedPlace } from './bench-place.ts';
import { benchAddress, notifiesFor, notifyPlan, sendingAddresses } from './gateway-notify-plan.ts';
import { MONTH_DAYS, notifyOf, seedNotifyOrders } from './gateway-notify-seed.ts';
import { type GoalRow, grouped, ms, printGoals } from './goals.ts';

const quick = process.argv.includes('--quick');
const embedded =
  process.argv.includes('--embedded') || !(process.env.DATABASE_URL || process.env.TEST_DATABASE_URL);
/** Distinct orders notified a second: the goal's rate, unless `--rate=N` asks for another. */
const GOAL_ORDERS_PER_SECOND = 1_000;
const ORDERS_PER_SECOND = Number(
  /^--rate=(\d+)$/.exec(process.argv.find((arg) => arg.startsWith('--rate=')) ?? '')?.[1] ??
    GOAL_ORDERS_PER_SECOND,
);
/** One order in DUPLICATE_EVERY has its notify sent twice at once. */
const DUPLICATE_EVERY = 10;
const WARM_UP_MS = quick ? 1_000 : 3_000;
const LOAD_MS = quick ? 3_000 : 10_000;
/** Orders seeded but never notified, which must stay as they were. */
const UNTOUCHED = 1_000;
const ORDERS = (ORDERS_PER_SECOND * (WARM_UP_MS + LOAD_MS)) / 1000 + UNTOUCHED;
/** Notifies a second, the duplicates with them. */
const NOTIFIES_PER_SECOND = notifiesFor(ORDERS_PER_SECOND, DUPLICATE_EVERY);
const ADDRESSES = sendingAddresses(NOTIFIES_PER_SECOND, NOTIFY_PER_MINUTE);
/** The connections the open loop may open when replies are slow. */
const CONNECTIONS = 64;
const GOAL_P99_MS = 50;
const DATABASE_NAME = 'bench_notify';
const DAY_SECONDS = 86_400;

// ---- the run -----------------------------------------------------------------------------------

const loadText = (figures: LoadFigures) =>
  `${grouped(figures.requests)} notifies, ${grouped(figures.perSecond)}/s answered, p50 ${ms(figures.p50Ms)}, ` +
  `p90 ${ms(figures.p90Ms)}, p99 ${ms(figures.p99Ms)}, max ${ms(figures.maxMs)}` +
  (figures.failures ? `; ${figures.failures} failed, the first: ${figures.firstFailure}` : '') +
  (figures.unanswered ? `; ${figures.unanswered} unanswered` : '');

console.log(
  `bench:notify${process.argv
    .slice(2)
    .map((arg) => ` ${arg}`)
    .join('')}: ${grouped(ORDERS)} orders, ` +
    `${grouped(ORDERS_PER_SECOND)} distinct orders a second (${grouped(NOTIFIES_PER_SECOND)} notifies ` +
    `with one in ${DUPLICATE_EVERY} sent twice) from ${ADDRESSES} addresses; ` +
    `${availableParallelism()} cores, ${loadAverage()}`,
);
const where = await benchPlace({ bench: 'bench:notify', database: DATABASE_NAME, embedded });
console.log(`on ${where.description}`);
const secretsKey = randomBytes(32);
let failed = false;
let product: Measured | undefined;
try {
  const seeding = performance.now();
  const seeded = await seedPlace(where, (db) => seedNotifyOrders(db, secretsKey, ORDERS));
  console.log(
    `seeded ${grouped(seeded.orders.length)} customers with their slots and an unpaid order each ` +
      `(${grouped(seeded.orders.filter((order) => order.usdt !== null).length)} through USDT), ` +
      `in ${((performance.now() - seeding) / 1000).toFixed(1)} s`,
  );
  const build = buildProduct(workFolder('bench-notify'));
  console.log(`the product: ${build.description}`);
  const started = await startProduct('product', build, where.storage, {
    SECRETS_KEY: secretsKey.toString('hex'),
  });
  product = started;

  // The notifies in sending order, signed before the load so that the load generator only writes.
  const planned = ORDERS - UNTOUCHED;
  const notifies = seeded.orders.slice(0, planned).map((order) => notifyOf(order, seeded.epay, seeded.usdt));
  const plan = notifyPlan(planned, DUPLICATE_EVERY);
  let next = 0;
  const source = (): RequestSpec => {
    const spec = notifies[plan[next] ?? 0] ?? { method: 'GET', path: '/healthz' };
    const address = benchAddress(next % ADDRESSES);
    next += 1;
    return { ...spec, headers: { 'x-forwarded-for': address } };
  };
  const run = (durationMs: number) =>
    openLoop(started.instance, source, {
      perSecond: NOTIFIES_PER_SECOND,
      durationMs,
      connections: CONNECTIONS,
    });
  const warmUp = await run(WARM_UP_MS);
  console.log(`warm-up, ${WARM_UP_MS / 1000} s: ${loadText(warmUp)}`);
  const measuredLoad = loadAverage();
  const paced = await run(LOAD_MS);
  console.log(`measured, ${LOAD_MS / 1000} s (${measuredLoad} when it began): ${loadText(paced)}`);
  // Notifies due but never sent (when replies stopped coming) leave their orders as they were: the
  // orders notified are those of the notifies sent, in the plan's order.
  const sent = next;
  const notified = sent > 0 ? (plan[sent - 1] ?? 0) + 1 : 0;
  const lost = [warmUp, paced].reduce((sum, load) => sum + load.failures + load.unanswered, 0);

  await started.stop();
  // What each order came to: credited once (paid, one credited payment, one purchase of its days,
  // the account's expiry where that purchase left it), as it was, or anything else.
  const ledger = await readRow<{
    right: number;
    unprocessed: number;
    wrong: number;
    untouched: number;
    payments: number;
    purchases: number;
    refused: number;
  }>(
    where,
    sql`with p as (select order_id, count(*)::int as count,
          count(*) filter (where outcome = 'credited')::int as credited
        from payments group by order_id),
      l as (select ref, count(*)::int as count, min(seconds) as seconds, max(to_expire_at) as to_expire_at
        from expiry_ledger where reason = 'purchase' group by ref),
      o as (select split_part(o.id, '-', 3)::int as n,
          coalesce(o.status = 'paid' and p.count = 1 and p.credited = 1 and l.count = 1
            and l.seconds = o.days * ${DAY_SECONDS} and u.expire_at = l.to_expire_at, false) as once,
          o.status = 'unpaid' and p.count is null and l.count is null as untouched
        from orders o join users u on u.id = o.user_id
          left join p on p.order_id = o.id left join l on l.ref = o.id
        where o.id like 'notify-%')
      select count(*) filter (where n <= ${notified} and once)::int as right,
        count(*) filter (where n <= ${notified} and untouched)::int as unprocessed,
        count(*) filter (where n <= ${notified} and not once and not untouched)::int as wrong,
        count(*) filter (where n > ${notified} and untouched)::int as untouched,
        (select count(*) from payments)::int as payments,
        (select count(*) from expiry_ledger where reason = 'purchase')::int as purchases,
        (select count(*) from provider_notices)::int as refused
      from o`,
  );
  console.log(
    `the database: ${grouped(ledger.right)} of ${grouped(notified)} orders notified paid once (one ` +
      `payment, one purchase of ${MONTH_DAYS} days, the expiry where it says), ` +
      `${grouped(ledger.unprocessed)} as they were, ${grouped(ledger.wrong)} otherwise; ` +
      `${grouped(ledger.untouched)} of ${grouped(ORDERS - notified)} not notified as they were; ` +
      `${grouped(ledger.payments)} payments and ${grouped(ledger.purchases)} purchases in all for ` +
      `${grouped(sent)} notifies (${grouped(sent - notified)} of them duplicates); ` +
      `${grouped(ledger.refused)} refused notifies queued`,
  );

  // Every order notified is credited once, except those whose notify the server never read (cut when
  // the load gave up on its reply: at most one a notify left unanswered), which are as they were, as
  // the gateway would find them and send again. No order is ever credited twice, or half.
  const creditedOnce =
    ledger.wrong === 0 &&
    ledger.unprocessed <= lost &&
    ledger.right + ledger.unprocessed === notified &&
    ledger.untouched === ORDERS - notified &&
    ledger.payments === ledger.right &&
    ledger.purchases === ledger.right &&
    ledger.refused === 0;
  const rows: GoalRow[] = [
    [
      `p99 at ${grouped(ORDERS_PER_SECOND)} orders/s (open loop, ${LOAD_MS / 1000} s)`,
      ms(paced.p99Ms),
      `≤ ${GOAL_P99_MS} ms at ${grouped(GOAL_ORDERS_PER_SECOND)}/s`,
      // At a lower rate than the goal's, the figure says how the product does there, not the verdict.
      ORDERS_PER_SECOND >= GOAL_ORDERS_PER_SECOND && paced.p99Ms <= GOAL_P99_MS,
    ],
    ['p50 / p90 / max', `${ms(paced.p50Ms)} / ${ms(paced.p90Ms)} / ${ms(paced.maxMs)}`, '—', undefined],
    [
      'notifies answered a second (duplicates with them)',
      `${grouped(paced.perSecond)}/s`,
      `${grouped(NOTIFIES_PER_SECOND)}/s`,
      undefined,
    ],
    ['notifies refused, failed or unanswered', grouped(lost), 'none', lost === 0],
    [
      'orders notified credited exactly once (payments, ledger, expiry)',
      `${grouped(ledger.right)} / ${grouped(notified)}, ${grouped(ledger.wrong)} otherwise`,
      'all, nothing else',
      creditedOnce,
    ],
  ];
  if (!printGoals(rows)) failed = true;
} finally {
  if (product?.instance.running()) await product.instance.stop('SIGKILL');
  await where.drop();
}
process.exit(failed ? 1 : 0);
