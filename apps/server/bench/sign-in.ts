// `npm run bench:signin`: sign-in latency against the cost of one argon2id hash, and whether a
// burst of sign-ins blocks the event loop. Budgets: sign-in p50 within 1.5x one hash; other
// requests keep being served during the burst. Prints the figures; the real app over HTTP.
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { hash as libraryHash } from '@node-rs/argon2';
import { ARGON2ID, hashPassword } from '../src/lib/passwords.ts';
import { createUser } from '../src/modules/users/repository.ts';
import { benchApp, median } from './bench-app.ts';

const PASSWORD = 'benchmark password';
const SAMPLES = 40;
const BURST = 40;

const max = (values: number[]) => Math.max(...values);
const ms = (value: number) => `${value.toFixed(1)} ms`;

async function timed<T>(work: () => Promise<T>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

const { app, database } = await benchApp({ TRUST_PROXY: 'true' });
const run = Date.now();
const account = `bench-${run}@example.com`;
const origin = await app.listen({ host: '127.0.0.1', port: 0 });
const passwordHash = await hashPassword(PASSWORD);
await createUser(database.db, { email: account, passwordHash });
// The burst signs in as many people at once: one address trying 40 times at once is itself an attack.
const crowd = Array.from({ length: BURST }, (_, i) => `bench-${run}-${i}@example.com`);
for (const email of crowd) await createUser(database.db, { email, passwordHash });

let client = 0;
const signIn = (email = account) =>
  fetch(`${origin}/web/login/login`, {
    method: 'POST',
    // A new client address each time, so the per-address sign-in limit never applies.
    headers: {
      'content-type': 'application/json',
      'x-forwarded-for': `10.9.${client >> 8}.${client++ & 255}`,
    },
    body: JSON.stringify({ email, password: PASSWORD }),
  }).then(async (res) => {
    const reply = (await res.json()) as { code: number };
    if (reply.code !== 200) throw new Error('sign-in failed');
  });
const health = () => fetch(`${origin}/healthz`).then((res) => res.text());

try {
  for (let i = 0; i < 5; i++) await signIn();
  const calls: number[] = [];
  for (let i = 0; i < SAMPLES; i++)
    calls.push(await timed(() => fetch(`${origin}/web/site/conf`, { method: 'POST' })));
  const hashes: number[] = [];
  // The library's own hash, as anyone would call it: the floor of a sign-in.
  for (let i = 0; i < SAMPLES; i++) hashes.push(await timed(() => libraryHash(PASSWORD, ARGON2ID)));
  const signIns: number[] = [];
  for (let i = 0; i < SAMPLES; i++) signIns.push(await timed(() => signIn()));

  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  const burst = Promise.all(crowd.map((email) => signIn(email)));
  const during: number[] = [];
  for (let i = 0; i < 10; i++) during.push(await timed(health));
  await burst;
  loop.disable();

  const hash = median(hashes);
  const signInP50 = median(signIns);
  const ratio = signInP50 / hash;
  console.log(`database: ${database.kind}`);
  console.log(`a call without a hash (/web/site/conf) over HTTP, p50: ${ms(median(calls))}`);
  console.log(`argon2id hash (m=19 MiB, t=2, p=1), median of ${SAMPLES}: ${ms(hash)}`);
  console.log(
    `sign-in over HTTP, p50 of ${SAMPLES}: ${ms(signInP50)} = ${ratio.toFixed(2)}x one hash (budget 1.5x) ${ratio <= 1.5 ? 'OK' : 'OVER'}`,
  );
  console.log(
    `during ${BURST} concurrent sign-ins: /healthz p50 ${ms(median(during))}, max ${ms(max(during))}; ` +
      `event-loop delay p99 ${ms(loop.percentile(99) / 1e6)}, max ${ms(loop.max / 1e6)}`,
  );
} finally {
  await app.close();
  await database.close();
}
