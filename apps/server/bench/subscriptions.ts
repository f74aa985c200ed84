// `npm run bench:subscriptions`: the subscription links (`GET /s/TOKEN`, `GET /s/TOKEN/FORMAT`) at
// scale. Seeds 100,000 customers with live access, their paid orders and their slots (one to three
// each, every one with its link), and six nodes with inbounds of every protocol (one node premium, one
// for a plan only, one disabled), in a scratch database; starts the product as production runs it
// (the compiled server, a process of its own); checks that mihomo, sing-box and v2rayN each get their
// format; then fetches the links of random customers with the User-Agents of their apps (mihomo →
// YAML, sing-box → JSON, v2rayN → base64; one in ten by the format's path) from the benchmarking
// address range, never the same link twice in a run while there are links left, so that the limit of
// 120 fetches an hour per link does not come into it:
//
//   - at capacity: a closed loop over 32 keep-alive connections, each sending its next fetch as soon as
//     the previous one is answered: fetches per second (goal ≥ 1,000), and the latency it costs;
//   - at the goal's rate: 1,000 fetches a second due at a steady pace whatever the server does (an
//     open loop): p50 (goal ≤ 5 ms), p95 and p99, counted from when each fetch was due.
//
// Then stops the product (SIGTERM, a graceful shutdown) and checks that every fetch served is in the
// fetch log and every fetched slot has its last fetch. Prints a table of the figures beside their goals
// and exits 1 when one fails.
//
// On PostgreSQL by default: the server of DATABASE_URL, else TEST_DATABASE_URL, on which it creates
// the database `bench_subscriptions` (dropped at the end), with the product's limits counted in Redis
// (REDIS_URL, default redis://127.0.0.1:6379, database 13 unless it names one). `--embedded`: on the
// embedded database (PGlite) instead, in a folder under node_modules/.cache, limits counted in process.
// `--quick`: 10,000 customers and short runs.
import { createHash, randomBytes, randomInt, randomUUID } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { parse } from 'yaml';
import type { Database } from '../src/db/client.ts';
import { inbounds, nodes } from '../src/db/schema/index.ts';
import { hashToken } from '../src/lib/token-hash.ts';
import { subscriptionToken } from '../src/modules/devices/tokens.ts';
import { FETCHES_PER_HOUR } from '../src/modules/subscriptions/routes.ts';
import { closedLoop, type LoadFigures, openLoop, type RequestSpec } from './api-load.ts';
import {
  BENCH_SUBSCRIPTION_KEY,
  buildProduct,
  type Measured,
  startProduct,
  workFolder,
} from './api-processes.ts';
import { loadAverage } from './api-run.ts';
import { benchPlace, seedPlace } from './bench-place.ts';
import { type GoalRow, grouped, ms, printGoals } from './goals.ts';
import { type InboundSeed, reality, seedCustomers, shadowsocks, tlsInbound } from './seeds.ts';

const quick = process.argv.includes('--quick');
const embedded = process.argv.includes('--embedded');
const CUSTOMERS = quick ? 10_000 : 100_000;
const WARM_UP_MS = quick ? 1_000 : 3_000;
const LOAD_MS = quick ? 3_000 : 10_000;
/** The closed loop's connections: apps fetching at once, more than the server has cores to answer. */
const CONNECTIONS = 32;
/** The open loop: the goal's rate, and the connections it may open when replies are slow. */
const GOAL_PER_SECOND = 1_000;
const GOAL_P50_MS = 5;
const OPEN_LOOP_CONNECTIONS = 64;
const DATABASE_NAME = 'bench_subscriptions';

// ---- the data ----------------------------------------------------------------------------------

/** Six nodes, five of them enabled, with every protocol, transport and TLS the product serves. */
const NODES: {
  node: Omit<typeof nodes.$inferInsert, 'sortOrder'>;
  inbounds: (InboundSeed & { enabled?: boolean })[];
}[] = [
  {
    node: { name: 'Hong Kong 1', region: 'HK', host: 'hk1.example.com' },
    inbounds: [
      reality(443),
      tlsInbound('vless', 8443, 'ws', 'hk1.example.com'),
      shadowsocks(8388, '2022-blake3-aes-256-gcm'),
      { ...tlsInbound('vmess', 2083, 'ws', 'hk1.example.com'), enabled: false },
    ],
  },
  {
    node: { name: 'Tokyo 1', region: 'JP', host: 'jp1.example.com' },
    inbounds: [
      reality(443),
      tlsInbound('trojan', 8443, 'tcp', 'jp1.example.com'),
      tlsInbound('vmess', 2083, 'ws', 'jp1.example.com'),
    ],
  },
  {
    node: { name: 'Singapore 1', region: 'SG', host: 'sg1.example.com' },
    inbounds: [
      tlsInbound('trojan', 443, 'grpc', 'sg1.example.com'),
      shadowsocks(8389, '2022-blake3-aes-128-gcm'),
      { protocol: 'vmess', port: 10086, transport: 'tcp', security: 'none' },
    ],
  },
  {
    node: { name: 'Los Angeles Premium', region: 'US', host: 'us1.example.com', minConnections: 3 },
    inbounds: [reality(443), tlsInbound('trojan', 8443, 'tcp', 'us1.example.com')],
  },
  {
    node: { name: 'Frankfurt Annual', region: 'DE', host: '203.0.113.7', periods: ['year'] },
    inbounds: [reality(443)],
  },
  {
    node: { name: 'Retired', region: 'HK', host: 'old.example.com', enabled: false },
    inbounds: [reality(443)],
  },
];

/** A customer's connections, 1 to 3: the slots they hold. */
const connectionsOf = (n: number) => 1 + (n % 3);
/** The UUID the seed gives customer n (md5 of the run's salt and n, in SQL and here alike). */
const customerId = (salt: string, n: number) => {
  const hex = createHash('md5').update(`${salt}${n}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};
const SLOTS_PER_STATEMENT = 10_000;

/**
 * The nodes, then the customers with live access (ending 1 to 300 days from now), each with one paid
 * order (a month, half a year or a year) and their slots, active, each with its link's hash; a few
 * statements in all. Answers the links' tokens. Slot ids are new each run, so that counts an earlier
 * run left in Redis do not apply.
 */
async function seed(db: Database, customers: number): Promise<string[]> {
  for (const [index, { node, inbounds: rows }] of NODES.entries()) {
    const [made] = await db
      .insert(nodes)
      .values({ ...node, sortOrder: index + 1 })
      .returning({ id: nodes.id });
    if (!made) throw new Error('node not written');
    await db
      .insert(inbounds)
      .values(rows.map((row, order) => ({ ...row, nodeId: made.id, sortOrder: order + 1 })));
  }
  const salt = randomBytes(6).toString('hex');
  await seedCustomers(db, { count: customers, salt, label: 'subscriber' });
  await db.execute(sql`
    insert into orders (id, user_id, period, months, days, connections, unit_price, amount, currency,
      pay_method, provider, status, created_at, latest_pay_at, paid_at)
    select 'subscriber-' || ${salt} || '-' || n, md5(${salt} || n)::uuid,
      case when n % 20 < 12 then 'month' when n % 20 < 17 then 'half_year' else 'year' end,
      1, 31, 1 + n % 3, 2500, 2500, 'CNY', 'alipay', 'sandbox', 'paid',
      now() - interval '10 days', now() - interval '10 days' + interval '30 minutes',
      now() - interval '10 days' + interval '1 minute'
    from generate_series(1, ${customers}) n`);
  const tokens: string[] = [];
  let batch: { id: string; user_id: string; position: number; token_hash: string }[] = [];
  const writeSlots = async () => {
    if (batch.length === 0) return;
    await db.execute(sql`
      insert into device_slots (id, user_id, position, credential, secret, token_hash, active, created_at)
      select s.id, s.user_id, s.position, gen_random_uuid(),
        encode(sha256(convert_to(gen_random_uuid()::text, 'UTF8')), 'base64'), s.token_hash, true,
        now() - interval '10 days'
      from jsonb_to_recordset(${JSON.stringify(batch)}::jsonb)
        as s(id uuid, user_id uuid, position integer, token_hash text)`);
    batch = [];
  };
  for (let n = 1; n <= customers; n++) {
    for (let position = 1; position <= connectionsOf(n); position++) {
      const id = randomUUID();
      const token = subscriptionToken(BENCH_SUBSCRIPTION_KEY, { id, tokenVersion: 1 });
      tokens.push(token);
      batch.push({ id, user_id: customerId(salt, n), position, token_hash: hashToken(token) });
      if (batch.length >= SLOTS_PER_STATEMENT) await writeSlots();
    }
  }
  await writeSlots();
  await db.execute(sql`vacuum analyze`);
  return tokens;
}

// ---- where it runs -----------------------------------------------------------------------------

// ---- the fetches -------------------------------------------------------------------------------

/** The apps, by turns: mihomo and Clash Verge (YAML), sing-box's apps (JSON), v2rayN's (base64). */
const APPS = [
  { userAgent: 'mihomo/1.19.0', format: 'clash' },
  { userAgent: 'SFA/1.10.1 (Android 14; sing-box 1.10.1)', format: 'sing-box' },
  { userAgent: 'v2rayN/7.5.4', format: 'base64' },
  { userAgent: 'clash-verge/v2.0.3', format: 'clash' },
  { userAgent: 'sing-box 1.10.1 (go1.22.7, linux/amd64)', format: 'sing-box' },
  { userAgent: 'v2rayNG/1.9.30', format: 'base64' },
] as const;

/** A client address from the benchmarking range (198.18.0.0/15), as the load balancer says it. */
const clientAddress = () => `198.${18 + randomInt(2)}.${randomInt(256)}.${randomInt(1, 255)}`;

/**
 * The fetches, one after another: every link once, in a random order, before any is fetched again.
 * `sent` says how many were made.
 */
function fetches(tokens: string[]) {
  const order = Array.from(tokens.keys());
  for (let i = order.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [order[i], order[j]] = [order[j] ?? 0, order[i] ?? 0];
  }
  let sent = 0;
  /** The links fetched, for the check of their last fetch. */
  const fetched = new Set<string>();
  return {
    get sent() {
      return sent;
    },
    fetched,
    next(): RequestSpec {
      const token = tokens[order[sent % order.length] ?? 0] ?? '';
      fetched.add(token);
      const app = APPS[sent % APPS.length] ?? APPS[0];
      sent += 1;
      // One in ten by the format's path, as a link copied from the page is.
      const path = sent % 10 === 0 ? `/s/${token}/${app.format}` : `/s/${token}`;
      return {
        method: 'GET',
        path,
        headers: { 'user-agent': app.userAgent, 'x-forwarded-for': clientAddress(), accept: '*/*' },
      };
    },
  };
}

/** What each app gets, checked before the load: its format, with this network's servers. */
async function checkFormats(origin: string, tokens: string[]): Promise<string[]> {
  const lines: string[] = [];
  for (const [index, app] of APPS.slice(0, tokens.length).entries()) {
    const reply = await fetch(`${origin}/s/${tokens[index]}`, { headers: { 'user-agent': app.userAgent } });
    const body = await reply.text();
    if (reply.status !== 200) throw new Error(`${app.userAgent}: ${reply.status} ${body}`);
    const servers =
      app.format === 'clash'
        ? (parse(body) as { proxies: unknown[] }).proxies.length
        : app.format === 'sing-box'
          ? (JSON.parse(body) as { outbounds: { server?: string }[] }).outbounds.filter((o) => o.server)
              .length
          : Buffer.from(body, 'base64').toString('utf8').split('\n').length;
    if (servers < 2) throw new Error(`${app.userAgent}: ${servers} servers in\n${body}`);
    lines.push(
      `  ${app.userAgent} → ${reply.headers.get('content-type')}, ${servers} servers, ${body.length} bytes`,
    );
  }
  return lines;
}

// ---- the run -----------------------------------------------------------------------------------

const loadText = (figures: LoadFigures) =>
  `${grouped(figures.requests)} fetches, ${grouped(figures.perSecond)}/s, p50 ${ms(figures.p50Ms)}, ` +
  `p95 ${ms(figures.p95Ms)}, p99 ${ms(figures.p99Ms)}` +
  (figures.failures ? `; ${figures.failures} failed, the first: ${figures.firstFailure}` : '') +
  (figures.unanswered ? `; ${figures.unanswered} unanswered` : '');

console.log(
  `bench:subscriptions${quick ? ' --quick' : ''}${embedded ? ' --embedded' : ''}: ` +
    `${CUSTOMERS.toLocaleString('en-US')} customers; ${availableParallelism()} cores, ${loadAverage()}`,
);
const where = await benchPlace({ bench: 'bench:subscriptions', database: DATABASE_NAME, embedded });
console.log(`on ${where.description}`);
let failed = false;
let product: Measured | undefined;
try {
  const seeding = performance.now();
  const tokens = await seedPlace(where, (db) => seed(db, CUSTOMERS));
  console.log(
    `seeded ${CUSTOMERS.toLocaleString('en-US')} customers with their paid orders and ` +
      `${tokens.length.toLocaleString('en-US')} slots, ${NODES.length} nodes with ` +
      `${NODES.reduce((sum, node) => sum + node.inbounds.length, 0)} inbounds, ` +
      `in ${((performance.now() - seeding) / 1000).toFixed(1)} s`,
  );
  const build = buildProduct(workFolder('bench-subscriptions'));
  console.log(`the product: ${build.description}`);
  product = await startProduct('product', build, where.storage);
  const origin = `http://127.0.0.1:${product.instance.port}`;
  const load = fetches(tokens);
  // The first three customers' links, each by one of the apps.
  const checked = tokens.slice(0, 3);
  for (const token of checked) load.fetched.add(token);
  for (const line of await checkFormats(origin, checked)) console.log(line);

  const source = () => load.next();
  const warmUp = await closedLoop(product.instance, source, { connections: 16, durationMs: WARM_UP_MS });
  console.log(`warm-up, 16 connections: ${loadText(warmUp)}`);
  const capacity = await closedLoop(product.instance, source, {
    connections: CONNECTIONS,
    durationMs: LOAD_MS,
  });
  console.log(`at capacity, ${CONNECTIONS} connections: ${loadText(capacity)}`);
  const paced = await openLoop(product.instance, source, {
    perSecond: GOAL_PER_SECOND,
    durationMs: LOAD_MS,
    connections: OPEN_LOOP_CONNECTIONS,
  });
  console.log(`at ${grouped(GOAL_PER_SECOND)} fetches/s: ${loadText(paced)}`);
  const eachAtMost = Math.ceil(load.sent / tokens.length);
  console.log(
    `${grouped(load.sent)} fetches over ${grouped(tokens.length)} links: each fetched at most ` +
      `${eachAtMost} time(s) in the run (the limit: ${FETCHES_PER_HOUR} an hour)`,
  );

  // A graceful shutdown, after which every fetch served must be in the log.
  await product.stop();
  const served = [warmUp, capacity, paced].reduce(
    (sum, run) => sum + run.requests - run.failures,
    checked.length,
  );
  const reopened = await where.open();
  let logged: { fetches: number; slots: number };
  try {
    const result = (await reopened.db.execute(sql`
      select (select count(*) from subscription_fetches)::int as fetches,
        (select count(*) from device_slots where last_fetch_at is not null)::int as slots`)) as {
      rows: { fetches: number; slots: number }[];
    };
    logged = result.rows[0] ?? { fetches: 0, slots: 0 };
  } finally {
    await reopened.close();
  }
  const fetchedSlots = load.fetched.size;
  const lost = [warmUp, capacity, paced].reduce((sum, run) => sum + run.failures + run.unanswered, 0);

  const rows: GoalRow[] = [
    [
      `fetches/s, ${CONNECTIONS} connections (closed loop)`,
      `${grouped(capacity.perSecond)}/s`,
      `≥ ${grouped(GOAL_PER_SECOND)}/s`,
      capacity.perSecond >= GOAL_PER_SECOND,
    ],
    [
      `p50 at ${grouped(GOAL_PER_SECOND)} fetches/s (open loop)`,
      ms(paced.p50Ms),
      `≤ ${GOAL_P50_MS} ms`,
      paced.p50Ms <= GOAL_P50_MS,
    ],
    [`p95 at ${grouped(GOAL_PER_SECOND)} fetches/s`, ms(paced.p95Ms), '—', undefined],
    [`p99 at ${grouped(GOAL_PER_SECOND)} fetches/s`, ms(paced.p99Ms), '—', undefined],
    [
      `p50 / p95 / p99, ${CONNECTIONS} connections`,
      `${ms(capacity.p50Ms)} / ${ms(capacity.p95Ms)} / ${ms(capacity.p99Ms)}`,
      '—',
      undefined,
    ],
    ['fetches refused, failed or unanswered', grouped(lost), 'none', lost === 0],
    [
      'fetch log rows after the shutdown / fetches served',
      `${grouped(logged.fetches)} / ${grouped(served)}`,
      'all',
      logged.fetches === served,
    ],
    [
      'slots with a last fetch / slots fetched',
      `${grouped(logged.slots)} / ${grouped(fetchedSlots)}`,
      'all',
      logged.slots === fetchedSlots,
    ],
  ];
  if (!printGoals(rows)) failed = true;
} finally {
  if (product?.instance.running()) await product.instance.stop('SIGKILL');
  await where.drop();
}
process.exit(failed ? 1 : 0);
