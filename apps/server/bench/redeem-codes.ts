// `npm run bench:redeem`: redeem codes at scale (PRODUCT.md section 9), on PostgreSQL (a scratch
// database on the server of DATABASE_URL or TEST_DATABASE_URL, dropped at the end):
// 1. generating a batch of 100,000 codes as the back office's create call does (codes made, hashed
//    and inserted in one transaction, the CSV kept for the reply): its time, and the growth of the
//    process's anonymous memory (RssAnon) over a collected heap while it runs;
// 2. with 1,000,000 codes stored (900,000 more inserted by SQL), one redemption over HTTP through the
//    real app (a fresh account and a client address per call), its p50, and beside it the p50 of a
//    refused one (an unknown code) and of the service alone.
// Goals: generation ≤ 10 s, memory growth ≤ 64 MB, a redemption's p50 ≤ 20 ms. Exits 1 when one fails.
// Needs `node --expose-gc` for the memory figure (the npm script passes it).
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { REDEEM_BATCH_MAX } from '@skyway/shared/redeem-codes';
import { redeemBatches } from '../src/db/schema/index.ts';
import { COMMAND_LINE } from '../src/modules/audit/repository.ts';
import { createMemoryCounters } from '../src/modules/limits/counters.ts';
import { newRedeemCodes } from '../src/modules/redeem-codes/codes.ts';
import { createBatch, redeemCode } from '../src/modules/redeem-codes/service.ts';
import { createSession } from '../src/modules/sessions/repository.ts';
import { createUser } from '../src/modules/users/repository.ts';
import { benchApp, median } from './bench-app.ts';
import { benchPlace } from './bench-place.ts';

const STORED = 1_000_000;
const SAMPLES = 200;
const WARM_UP = 20;
const GOALS = { generateSeconds: 10, memoryGrowthMb: 64, redeemP50Ms: 20 };

const rssAnonMb = () =>
  Number(/RssAnon:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? Number.NaN) / 1024;
const collectGarbage = () => (globalThis as { gc?: () => void }).gc?.();
const quick = process.argv.includes('--quick');

const place = await benchPlace({ bench: 'bench:redeem', database: 'skyway_bench_redeem', embedded: false });
if (!('databaseUrl' in place.storage)) throw new Error('bench:redeem runs on PostgreSQL');
process.env.DATABASE_URL = place.storage.databaseUrl;
const { app, database } = await benchApp({
  TRUST_PROXY: 'true',
  ...(place.storage.redisUrl ? { REDIS_URL: place.storage.redisUrl } : {}),
});
const { db } = database;
const failures: string[] = [];
const judge = (label: string, value: number, goal: number, unit: string) => {
  const ok = value <= goal;
  if (!ok) failures.push(label);
  console.log(
    `${label}: ${value.toFixed(unit === 's' ? 2 : 1)} ${unit} (goal ≤ ${goal} ${unit}) ${ok ? 'ok' : 'OVER'}`,
  );
};

try {
  console.log(`on ${place.description}`);
  const count = quick ? 10_000 : REDEEM_BATCH_MAX;

  // 1. A batch of 100,000 codes, its memory sampled every 10 ms from a collected heap.
  collectGarbage();
  const baseline = rssAnonMb();
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssAnonMb());
  }, 10);
  const started = performance.now();
  const { batch, csv } = await createBatch(
    db,
    COMMAND_LINE,
    { name: 'bench', note: '', count, grant: { kind: 'plan', period: 'month', connections: 2 } },
    new Date(),
  );
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, rssAnonMb());
  const codes = csv.trimEnd().split('\r\n').slice(1);
  if (codes.length !== count) throw new Error(`the CSV holds ${codes.length} codes, not ${count}`);
  console.log(`generated ${count} codes (CSV ${(csv.length / 1e6).toFixed(1)} MB)`);
  judge('generation time', seconds, GOALS.generateSeconds, 's');
  judge('memory growth (RssAnon) during generation', peak - baseline, GOALS.memoryGrowthMb, 'MB');

  // 2. A million codes stored: the rest inserted by SQL, as hashes of no code anyone has.
  const more = (quick ? 100_000 : STORED) - count;
  const [other] = await db
    .insert(redeemBatches)
    .values({ name: 'seed', grantKind: 'days', days: 1, count: more, createdByEmail: 'bench' })
    .returning();
  const seeding = performance.now();
  await db.execute(sql`
    insert into redeem_codes (code_hash, batch_id)
    select encode(sha256(('bench-' || g)::bytea), 'hex'), ${other?.id}::uuid from generate_series(1, ${more}) g`);
  await db.execute(sql`analyze redeem_codes`);
  console.log(
    `stored ${count + more} codes (${more} by SQL in ${((performance.now() - seeding) / 1000).toFixed(1)} s)`,
  );

  const accounts = [];
  for (let n = 0; n < 2 * (SAMPLES + WARM_UP) + SAMPLES; n++) {
    const user = await createUser(db, { email: `bench-redeem-${batch.id.slice(0, 8)}-${n}@example.com` });
    accounts.push({ user, token: await createSession(db, user.id) });
  }
  const origin = await app.listen({ host: '127.0.0.1', port: 0 });
  let client = 0;
  const redeemOverHttp = async (code: string, token: string) => {
    client += 1;
    const begun = performance.now();
    const res = await fetch(`${origin}/web/redeem`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: token,
        'x-forwarded-for': `198.18.${(client >> 8) & 255}.${client & 255}`,
      },
      body: JSON.stringify({ code }),
    });
    const reply = (await res.json()) as { code: number };
    return { ms: performance.now() - begun, code: reply.code };
  };

  const redeemed: number[] = [];
  const refused: number[] = [];
  let next = 0;
  for (let n = 0; n < SAMPLES + WARM_UP; n++) {
    // Taking turns: a code of the batch, then an unknown one, each from a fresh account.
    const good = await redeemOverHttp(codes[n] as string, (accounts[next++] as { token: string }).token);
    const bad = await redeemOverHttp(
      newRedeemCodes(1)[0] as string,
      (accounts[next++] as { token: string }).token,
    );
    if (good.code !== 200 || bad.code !== 400)
      throw new Error(`unexpected replies ${good.code}, ${bad.code}`);
    if (n >= WARM_UP) {
      redeemed.push(good.ms);
      refused.push(bad.ms);
    }
  }
  const counters = createMemoryCounters();
  const service: number[] = [];
  for (let n = 0; n < SAMPLES; n++) {
    const account = accounts[next++] as { user: { id: string } };
    const begun = performance.now();
    await redeemCode(
      { db, counters },
      {
        userId: account.user.id,
        code: codes[SAMPLES + WARM_UP + n] as string,
        ip: `198.19.${n >> 8}.${n & 255}`,
        now: new Date(),
      },
    );
    service.push(performance.now() - begun);
  }
  judge(`one redemption over HTTP at ${count + more} codes, p50`, median(redeemed), GOALS.redeemP50Ms, 'ms');
  console.log(`a refused redemption (unknown code) over HTTP, p50: ${median(refused).toFixed(2)} ms`);
  console.log(`one redemption, the service alone, p50: ${median(service).toFixed(2)} ms`);
} finally {
  await app.close();
  await database.close();
  await place.drop();
}
if (failures.length > 0) {
  console.error(`over the goal: ${failures.join(', ')}`);
  process.exit(1);
}
