// `npm run bench:node-api`: the node API (`/node/v1/`) at scale, against the issue's budget. Seeds
// 100,000 customers with live access (1 to 3 connections), each with a paid order (some with an older
// paid order of another plan, and a newer unpaid one, so that "the latest paid order" has to be
// looked for) and one active slot, a few downgraded ones with an inactive slot too, and three nodes,
// each with its inbounds and its API token (its hash stored, as the back office stores it): one open
// to every plan, one premium (min_connections 3, charged at 150 %), one for the annual plan. Reads the
// revision, then changes 1,000 slots as the product does (each change takes
// `nextval('device_slot_revisions')` for its revision, under the revisions lock): 800 regenerated
// credentials and 200 accounts revoked, their slot deactivated. Starts the product as production runs
// it (the compiled server, a process of its own) and measures over HTTP, with the open node's token:
//
//   - `GET /node/v1/credentials?since=<the revision before the changes>`: p50 / p95 of 30 pulls
//     (goal p95 ≤ 50 ms), each checked: the 800 regenerated slots with their new credentials in
//     `upsert`, the 200 deactivated ones in `remove`, nothing else;
//   - `GET /node/v1/credentials?since=0`: the full list, p50 / p95 of 10 pulls (goal p95 ≤ 1 s), each
//     checked against the slots the rule admits (computed in SQL); the premium and annual nodes' full
//     lists are checked once;
//   - `POST /node/v1/report` with 10,000 credentials, each with some bytes and an address: p50 / p95
//     of 20 reports (goal p95 ≤ 500 ms), each a new sequence and each answered `applied`; the last one
//     sent again is answered not applied.
//
// Then stops the product (SIGTERM) and checks the ledger: one report row per sequence, each with its
// 10,000 credentials, and the bytes in `traffic_hourly` (and in the reports' rows) the sums sent.
// Prints a table of the figures beside their goals and exits 1 when one fails.
//
// On PostgreSQL by default: the server of DATABASE_URL, else TEST_DATABASE_URL, on which it creates
// the database `bench_node_api` (dropped at the end), with the product's limits counted in Redis
// (REDIS_URL, default redis://127.0.0.1:6379, database 13 unless it names one). `--embedded`: on the
// embedded database (PGlite) instead, in a folder under node_modules/.cache, limits counted in process.
// `--quick`: 10,000 customers, 100 changes, reports of 2,000 credentials, fewer runs.
import { createHash, randomBytes, randomInt } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { NODE_API_HEADER, NODE_API_VERSION } from '@skyway/shared/schemas/node-api';
import type { Database } from '../src/db/client.ts';
import { inbounds, nodes } from '../src/db/schema/index.ts';
import { holdRevisions } from '../src/modules/access/revisions.ts';
import { hashToken } from '../src/lib/token-hash.ts';
import { percentile } from './api-load.ts';
import { buildProduct, type Measured, startProduct, workFolder } from './api-processes.ts';
import { loadAverage } from './api-run.ts';
import { benchPlace, readRow, seedPlace } from './bench-place.ts';
import { type GoalRow, grouped, ms, printGoals } from './goals.ts';
import { type InboundSeed, reality, seedCustomers, shadowsocks, tlsInbound } from './seeds.ts';

const quick = process.argv.includes('--quick');
const embedded = process.argv.includes('--embedded');
const CUSTOMERS = quick ? 10_000 : 100_000;
/** Slots changed after the node's revision: regenerated credentials, and accounts revoked. */
const CHANGES = quick ? 100 : 1_000;
const REVOKED = CHANGES / 5;
const REPORT_CREDENTIALS = quick ? 2_000 : 10_000;
const DELTA_RUNS = quick ? 10 : 30;
const FULL_RUNS = quick ? 4 : 10;
const REPORT_RUNS = quick ? 6 : 20;
/** Unmeasured calls of each kind first (the server's code and the database's caches warm up). */
const WARM_UP = 3;
const GOAL_DELTA_MS = 50;
const GOAL_FULL_MS = 1_000;
const GOAL_REPORT_MS = 500;
const DATABASE_NAME = 'bench_node_api';

// ---- the data ----------------------------------------------------------------------------------

type NodeKey = 'open' | 'premium' | 'annual';
const NODES: Record<
  NodeKey,
  { node: Omit<typeof nodes.$inferInsert, 'sortOrder'>; inbounds: InboundSeed[]; admits: string }
> = {
  open: {
    node: { name: 'Hong Kong 1', region: 'HK', host: 'hk1.example.com' },
    inbounds: [
      reality(443),
      tlsInbound('trojan', 8443, 'tcp', 'hk1.example.com'),
      shadowsocks(8388, '2022-blake3-aes-256-gcm'),
    ],
    admits: 'true',
  },
  premium: {
    node: {
      name: 'Los Angeles Premium',
      region: 'US',
      host: 'us1.example.com',
      minConnections: 3,
      ratePercent: 150,
    },
    inbounds: [reality(443), tlsInbound('trojan', 8443, 'tcp', 'us1.example.com')],
    admits: 'u.connections >= 3',
  },
  annual: {
    node: { name: 'Frankfurt Annual', region: 'DE', host: '203.0.113.7', periods: ['year'] },
    inbounds: [reality(443)],
    admits: `(select o.period from orders o where o.user_id = u.id and o.status = 'paid'
      order by o.created_at desc limit 1) = 'year'`,
  },
};
const NODE_KEYS = Object.keys(NODES) as NodeKey[];

interface Seeded {
  /** Each node's id and API token. */
  nodes: Record<NodeKey, { id: string; token: string; ratePercent: number }>;
  /** The revision the nodes held before the changes. */
  before: number;
  /** The slots whose credential was regenerated, with the new credential. */
  regenerated: Map<string, string>;
  /** The slots deactivated (their account revoked). */
  deactivated: Set<string>;
  /** The slots each node admits after the changes, by the rule, computed in SQL. */
  admitted: Record<NodeKey, Set<string>>;
  slots: { active: number; inactive: number };
  orders: number;
}

const rowsOf = async <T>(db: Database, query: ReturnType<typeof sql>) =>
  ((await db.execute(query)) as unknown as { rows: T[] }).rows;

/** The highest revision, as the credentials call reads it. */
const highestRevision = async (db: Database) =>
  Number(
    (
      await rowsOf<{ revision: string | number }>(
        db,
        sql`select greatest((select max(revision) from device_slots), (select max(revision) from nodes)) as revision`,
      )
    )[0]?.revision ?? 0,
  );

/**
 * The nodes with their tokens; the customers with live access (ending 1 to 300 days from now, 1 to 3
 * connections), their paid orders and their slots; a few statements in all. Then the revision, and
 * the changes after it.
 */
async function seed(db: Database, customers: number): Promise<Seeded> {
  const made = {} as Seeded['nodes'];
  for (const [index, key] of NODE_KEYS.entries()) {
    const { node, inbounds: rows } = NODES[key];
    const token = randomBytes(32).toString('base64url');
    const [row] = await db
      .insert(nodes)
      .values({ ...node, sortOrder: index + 1, tokenHash: hashToken(token) })
      .returning({ id: nodes.id, ratePercent: nodes.ratePercent });
    if (!row) throw new Error('node not written');
    await db
      .insert(inbounds)
      .values(rows.map((inbound, order) => ({ ...inbound, nodeId: row.id, sortOrder: order + 1 })));
    made[key] = { id: row.id, token, ratePercent: row.ratePercent };
  }
  const salt = randomBytes(6).toString('hex');
  await seedCustomers(db, { count: customers, salt, label: 'node-api' });
  // Every customer's paid order (a month, half a year or a year); one in ten an older paid one of
  // another plan, one in seven a newer unpaid one: the latest paid order decides the plan.
  await db.execute(sql`
    insert into orders (id, user_id, period, months, days, connections, unit_price, amount, currency,
      pay_method, provider, status, created_at, latest_pay_at, paid_at)
    select 'node-api-' || ${salt} || '-' || n || '-' || kind, md5(${salt} || n)::uuid,
      case when kind = 'older' then 'month'
           when kind = 'unpaid' then 'year'
           when n % 20 < 12 then 'month' when n % 20 < 17 then 'half_year' else 'year' end,
      1, 31, 1 + n % 3, 2500, 2500, 'CNY', 'alipay', 'sandbox',
      case when kind = 'unpaid' then 'unpaid' else 'paid' end,
      now() - age, now() - age + interval '30 minutes',
      case when kind = 'unpaid' then null else now() - age + interval '1 minute' end
    from generate_series(1, ${customers}) n,
      lateral (values ('paid', interval '10 days'), ('older', interval '200 days'),
        ('unpaid', interval '1 day')) as k(kind, age)
    where kind = 'paid' or (kind = 'older' and n % 10 = 0) or (kind = 'unpaid' and n % 7 = 0)`);
  // One active slot each; the downgraded (one connection, one in ten of them) keep an inactive second.
  await db.execute(sql`
    insert into device_slots (user_id, position, credential, secret, active, created_at)
    select md5(${salt} || n)::uuid, position, gen_random_uuid(),
      encode(sha256(convert_to(gen_random_uuid()::text, 'UTF8')), 'base64'), position = 1,
      now() - interval '10 days'
    from generate_series(1, ${customers}) n, generate_series(1, 2) position
    where position = 1 or n % 30 = 0`);
  await db.execute(sql`vacuum analyze`);

  const before = await highestRevision(db);
  // The changes, as the product makes them: under the revisions lock (access/revisions.ts), each
  // slot's new revision from the sequence. Regenerated credentials (devices/repository.ts
  // replaceCredential), and revoked accounts whose active slots go (access/slots.ts).
  const picked = await rowsOf<{ id: string; user_id: string }>(
    db,
    sql`select s.id, s.user_id from device_slots s join users u on u.id = s.user_id
      where s.active and u.connections >= 2 order by md5(s.id::text) limit ${CHANGES}`,
  );
  const revoked = picked.slice(0, REVOKED);
  const renewed = picked.slice(REVOKED);
  const regenerated = new Map<string, string>();
  await db.transaction(async (tx) => {
    await holdRevisions(tx);
    const rows = await rowsOf<{ id: string; credential: string }>(
      tx,
      sql`update device_slots set credential = gen_random_uuid(),
          secret = encode(sha256(convert_to(gen_random_uuid()::text, 'UTF8')), 'base64'),
          token_version = token_version + 1, revision = nextval('device_slot_revisions')
        where id in (select (jsonb_array_elements_text(${JSON.stringify(renewed.map((slot) => slot.id))}::jsonb))::uuid)
        returning id, credential`,
    );
    for (const row of rows) regenerated.set(row.id, row.credential);
  });
  await db.transaction(async (tx) => {
    await holdRevisions(tx);
    const users = JSON.stringify(revoked.map((slot) => slot.user_id));
    await tx.execute(sql`update users set revoked_at = now()
      where id in (select (jsonb_array_elements_text(${users}::jsonb))::uuid)`);
    await tx.execute(sql`update device_slots set active = false, revision = nextval('device_slot_revisions')
      where active and user_id in (select (jsonb_array_elements_text(${users}::jsonb))::uuid)`);
  });

  const admitted = {} as Seeded['admitted'];
  for (const key of NODE_KEYS) {
    const ids = await rowsOf<{ id: string }>(
      db,
      sql.raw(`select s.id from device_slots s join users u on u.id = s.user_id
        where s.active and u.revoked_at is null and u.expire_at > now() and s.position <= u.connections
          and (${NODES[key].admits})`),
    );
    admitted[key] = new Set(ids.map((row) => row.id));
  }
  const [counts] = await rowsOf<{ active: number; inactive: number; orders: number }>(
    db,
    sql`select count(*) filter (where active)::int as active, count(*) filter (where not active)::int as inactive,
      (select count(*) from orders)::int as orders from device_slots`,
  );
  return {
    nodes: made,
    before,
    regenerated,
    deactivated: new Set(revoked.map((slot) => slot.id)),
    admitted,
    slots: { active: counts?.active ?? 0, inactive: counts?.inactive ?? 0 },
    orders: counts?.orders ?? 0,
  };
}

// ---- where it runs -----------------------------------------------------------------------------

// ---- the calls ---------------------------------------------------------------------------------

interface Credentials {
  revision: number;
  full: boolean;
  upsert: { id: string; email: string; uuid: string; password: string }[];
  remove: string[];
}

/** One node API call, timed until its whole reply has arrived; the reply's data, parsed after. */
async function call<T>(
  origin: string,
  token: string,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<{ ms: number; data: T; bytes: number }> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const started = performance.now();
  const reply = await fetch(`${origin}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      [NODE_API_HEADER]: NODE_API_VERSION,
      ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: payload,
  });
  const text = await reply.text();
  const ms = performance.now() - started;
  if (reply.status !== 200) throw new Error(`${method} ${path}: ${reply.status} ${text.slice(0, 500)}`);
  return { ms, data: (JSON.parse(text) as { data: T }).data, bytes: Buffer.byteLength(text) };
}

/** What is wrong with a delta reply, or undefined. */
function deltaProblem(reply: Credentials, seeded: Seeded, revision: number): string | undefined {
  if (reply.full) return 'a full list, not the changes';
  if (reply.revision !== revision) return `revision ${reply.revision}, not ${revision}`;
  if (reply.upsert.length !== seeded.regenerated.size)
    return `${reply.upsert.length} upserts, not ${seeded.regenerated.size}`;
  for (const credential of reply.upsert) {
    if (seeded.regenerated.get(credential.id) !== credential.uuid)
      return `upsert ${credential.id}: not a regenerated slot with its new credential`;
  }
  if (reply.remove.length !== seeded.deactivated.size)
    return `${reply.remove.length} removals, not ${seeded.deactivated.size}`;
  if (!reply.remove.every((id) => seeded.deactivated.has(id))) return 'a removal of a slot not deactivated';
  return undefined;
}

/** What is wrong with a full list, or undefined. */
function fullProblem(reply: Credentials, admitted: Set<string>, seeded: Seeded): string | undefined {
  if (!reply.full) return 'not a full list';
  if (reply.remove.length > 0) return `${reply.remove.length} removals in a full list`;
  if (reply.upsert.length !== admitted.size)
    return `${reply.upsert.length} credentials, not ${admitted.size}`;
  for (const credential of reply.upsert) {
    if (!admitted.has(credential.id)) return `${credential.id} listed, not admitted`;
    if (credential.email !== credential.id || !credential.password) return `${credential.id}: malformed`;
    const renewed = seeded.regenerated.get(credential.id);
    if (renewed && renewed !== credential.uuid) return `${credential.id}: its old credential`;
  }
  return undefined;
}

/** `count` distinct slots of `pool`, at random. */
function sample(pool: string[], count: number): string[] {
  for (let i = 0; i < count; i++) {
    const j = i + randomInt(pool.length - i);
    [pool[i], pool[j]] = [pool[j] ?? '', pool[i] ?? ''];
  }
  return pool.slice(0, count);
}

interface Report {
  sequence: number;
  from: number;
  to: number;
  traffic: { id: string; upload: number; download: number }[];
  addresses: { id: string; ips: string[] }[];
}

/** The address a credential's one device connects from: the same in every report, as a device's is. */
function deviceAddress(id: string): string {
  const hash = createHash('sha256').update(id).digest();
  return `198.18.${hash[0] ?? 0}.${((hash[1] ?? 0) % 254) + 1}`;
}

/** How long each report covers, as an agent reports: a minute. */
const REPORT_SECONDS = 60;

/**
 * A report of `count` of the node's credentials, each with some bytes and the address it was live
 * from (which the panel also records and judges: one device per slot). Reports follow one another
 * a minute each, ending `minutesAgo` minutes before now, and carry what a 10 Gbit/s line could in a
 * minute (under 7.5 MB down and 0.75 MB up a credential, 10,000 of them): the panel refuses a report
 * its node's line could not carry, and judges each on the time no earlier report covered.
 */
function report(sequence: number, pool: string[], count: number, minutesAgo: number): Report {
  const ids = sample(pool, count);
  const to = Math.floor(Date.now() / 1000) - minutesAgo * REPORT_SECONDS;
  return {
    sequence,
    from: to - REPORT_SECONDS,
    to,
    traffic: ids.map((id) => ({ id, upload: randomInt(1, 750_000), download: randomInt(1, 7_500_000) })),
    addresses: ids.map((id) => ({ id, ips: [deviceAddress(id)] })),
  };
}

// ---- the run -----------------------------------------------------------------------------------

const spread = (values: number[]) =>
  `p50 ${ms(percentile(values, 0.5))}, p95 ${ms(percentile(values, 0.95))}, ` +
  `min ${ms(Math.min(...values))}, max ${ms(Math.max(...values))}`;

console.log(
  `bench:node-api${quick ? ' --quick' : ''}${embedded ? ' --embedded' : ''}: ` +
    `${grouped(CUSTOMERS)} customers, ${grouped(CHANGES)} changes, reports of ${grouped(REPORT_CREDENTIALS)} ` +
    `credentials; ${availableParallelism()} cores, ${loadAverage()}`,
);
const where = await benchPlace({ bench: 'bench:node-api', database: DATABASE_NAME, embedded });
console.log(`on ${where.description}`);
let failed = false;
let product: Measured | undefined;
try {
  const seeding = performance.now();
  const seeded = await seedPlace(where, (db) => seed(db, CUSTOMERS));
  console.log(
    `seeded ${grouped(CUSTOMERS)} customers with ${grouped(seeded.orders)} orders, ` +
      `${grouped(seeded.slots.active)} active and ${grouped(seeded.slots.inactive)} inactive slots, ` +
      `${NODE_KEYS.length} nodes; ${grouped(seeded.regenerated.size)} credentials regenerated and ` +
      `${grouped(seeded.deactivated.size)} slots deactivated after revision ${seeded.before}, ` +
      `in ${((performance.now() - seeding) / 1000).toFixed(1)} s`,
  );
  console.log(
    `admitted: ${NODE_KEYS.map((key) => `${key} ${grouped(seeded.admitted[key].size)}`).join(', ')}`,
  );
  const build = buildProduct(workFolder('bench-node-api'));
  console.log(`the product: ${build.description}`);
  product = await startProduct('product', build, where.storage);
  const origin = `http://127.0.0.1:${product.instance.port}`;
  const open = seeded.nodes.open;
  const problems: string[] = [];
  const note = (problem: string | undefined, what: string) => {
    if (problem) problems.push(`${what}: ${problem}`);
  };

  // The changes since the revision the node held.
  const deltaPath = `/node/v1/credentials?since=${seeded.before}`;
  const delta: number[] = [];
  let revision = 0;
  let deltaBytes = 0;
  for (let run = -WARM_UP; run < DELTA_RUNS; run++) {
    const reply = await call<Credentials>(origin, open.token, 'GET', deltaPath);
    revision ||= reply.data.revision;
    note(deltaProblem(reply.data, seeded, revision), `delta, run ${run}`);
    if (run >= 0) delta.push(reply.ms);
    deltaBytes = reply.bytes;
  }
  console.log(
    `credentials?since=${seeded.before} (${grouped(DELTA_RUNS)} runs, ${grouped(deltaBytes)} bytes): ${spread(delta)}`,
  );

  // The whole list, for a node with no revision.
  const full: number[] = [];
  let fullBytes = 0;
  for (let run = -WARM_UP; run < FULL_RUNS; run++) {
    const reply = await call<Credentials>(origin, open.token, 'GET', '/node/v1/credentials?since=0');
    note(fullProblem(reply.data, seeded.admitted.open, seeded), `full list, run ${run}`);
    if (run >= 0) full.push(reply.ms);
    fullBytes = reply.bytes;
  }
  console.log(
    `credentials?since=0 (${grouped(FULL_RUNS)} runs, ${grouped(fullBytes)} bytes): ${spread(full)}`,
  );
  for (const key of ['premium', 'annual'] as const) {
    const reply = await call<Credentials>(origin, seeded.nodes[key].token, 'GET', '/node/v1/credentials');
    note(fullProblem(reply.data, seeded.admitted[key], seeded), `${key} node's full list`);
    const changes = await call<Credentials>(origin, seeded.nodes[key].token, 'GET', deltaPath);
    const expected = [...seeded.regenerated.keys()].filter((id) => seeded.admitted[key].has(id));
    if (
      changes.data.upsert.length !== expected.length ||
      changes.data.upsert.length + changes.data.remove.length !== CHANGES
    )
      problems.push(
        `${key} node's delta: ${changes.data.upsert.length} upserts and ${changes.data.remove.length} ` +
          `removals, not ${expected.length} and ${CHANGES - expected.length}`,
      );
    console.log(
      `${key} node: full list ${ms(reply.ms)} (${grouped(reply.data.upsert.length)} credentials), ` +
        `delta ${ms(changes.ms)} (${changes.data.upsert.length} upserts, ${changes.data.remove.length} removals)`,
    );
  }

  // Traffic reports, each a new sequence.
  const pool = [...seeded.admitted.open];
  const firstSequence = Date.now();
  const sent = { reports: 0, upload: 0, download: 0 };
  const reports: number[] = [];
  let last: Report | undefined;
  for (let run = -WARM_UP; run < REPORT_RUNS; run++) {
    last = report(
      firstSequence + sent.reports,
      pool,
      Math.min(REPORT_CREDENTIALS, pool.length),
      REPORT_RUNS - 1 - run,
    );
    const reply = await call<{ applied: boolean; sequence: number; refused?: number; implausible?: boolean }>(
      origin,
      open.token,
      'POST',
      '/node/v1/report',
      last,
    );
    const { applied, sequence, refused, implausible } = reply.data;
    if (!applied || sequence !== last.sequence || refused !== undefined || implausible !== undefined)
      problems.push(`report ${last.sequence}: answered ${JSON.stringify(reply.data)}`);
    sent.reports += 1;
    for (const slot of last.traffic) {
      sent.upload += slot.upload;
      sent.download += slot.download;
    }
    if (run >= 0) reports.push(reply.ms);
  }
  console.log(
    `report of ${grouped(REPORT_CREDENTIALS)} credentials (${grouped(REPORT_RUNS)} runs): ${spread(reports)}`,
  );
  let again = false;
  if (last) {
    const resent = await call<{ applied: boolean }>(origin, open.token, 'POST', '/node/v1/report', last);
    again = resent.data.applied;
    console.log(`the last report sent again: ${ms(resent.ms)}, applied ${again}`);
  }

  await product.stop();
  const ledger = await readRow<{
    reports: number;
    full_reports: number;
    report_upload: string;
    report_download: string;
    upload: string;
    download: string;
  }>(
    where,
    sql`select count(*)::int as reports,
        count(*) filter (where credentials = ${Math.min(REPORT_CREDENTIALS, pool.length)})::int as full_reports,
        coalesce(sum(upload), 0)::text as report_upload, coalesce(sum(download), 0)::text as report_download,
        (select coalesce(sum(upload), 0) from traffic_hourly where node_id = ${open.id})::text as upload,
        (select coalesce(sum(download), 0) from traffic_hourly where node_id = ${open.id})::text as download
      from node_reports where node_id = ${open.id}`,
  );
  const ledgerRight =
    ledger.reports === sent.reports &&
    ledger.full_reports === sent.reports &&
    Number(ledger.upload) === sent.upload &&
    Number(ledger.download) === sent.download &&
    Number(ledger.report_upload) === sent.upload &&
    Number(ledger.report_download) === sent.download;
  console.log(
    `ledger: ${ledger.reports} report rows (${ledger.full_reports} with every credential) for ` +
      `${sent.reports} sent; traffic_hourly ${ledger.upload} / ${ledger.download} bytes up / down, ` +
      `the reports' rows ${ledger.report_upload} / ${ledger.report_download}, sent ${sent.upload} / ${sent.download}`,
  );
  for (const problem of problems.slice(0, 10)) console.log(`  wrong: ${problem}`);

  const rows: GoalRow[] = [
    [
      `credentials?since (${grouped(CHANGES)} changes) p95`,
      ms(percentile(delta, 0.95)),
      `≤ ${GOAL_DELTA_MS} ms`,
      percentile(delta, 0.95) <= GOAL_DELTA_MS,
    ],
    [`credentials?since p50`, ms(percentile(delta, 0.5)), '—', undefined],
    [
      `credentials?since=0 (${grouped(seeded.admitted.open.size)} credentials) p95`,
      ms(percentile(full, 0.95)),
      `≤ ${grouped(GOAL_FULL_MS)} ms`,
      percentile(full, 0.95) <= GOAL_FULL_MS,
    ],
    [`credentials?since=0 p50`, ms(percentile(full, 0.5)), '—', undefined],
    [
      `report of ${grouped(REPORT_CREDENTIALS)} credentials p95`,
      ms(percentile(reports, 0.95)),
      `≤ ${GOAL_REPORT_MS} ms`,
      percentile(reports, 0.95) <= GOAL_REPORT_MS,
    ],
    [`report p50`, ms(percentile(reports, 0.5)), '—', undefined],
    ['replies wrong (deltas, full lists, reports)', grouped(problems.length), 'none', problems.length === 0],
    ['a report sent again applied', again ? 'yes' : 'no', 'no', !again],
    ['ledger and report rows / what was sent', ledgerRight ? 'equal' : 'different', 'equal', ledgerRight],
  ];
  if (!printGoals(rows)) failed = true;
} finally {
  if (product?.instance.running()) await product.instance.stop('SIGKILL');
  await where.drop();
}
process.exit(failed ? 1 : 0);
