// `npm run bench:codes`: whether the time a code request takes tells if an address has an account.
// For each scene, requests for addresses with an account and without one are interleaved through the
// real app, each from its own client address and for its own e-mail address (so no code limit
// applies), and the median of the pairs' differences is printed. Budget: under 1 ms either way.
// DATABASE_URL measures on PostgreSQL, else the embedded database; mail goes to the (silenced) log,
// as without SMTP_URL.
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { createSession } from '../modules/sessions/repository.ts';
import { createUser } from '../modules/users/repository.ts';
import { benchApp, median } from './bench-app.ts';

const PAIRS = 200;
const WARM_UP_PAIRS = 20;
const BUDGET_MS = 1;
// Lets the previous request's background delivery finish, so that each time is the request's own.
const PAUSE_MS = 10;

const ms = (value: number) => `${value.toFixed(3)} ms`;

const { app, database } = await benchApp();
await app.ready();

const run = randomBytes(4).toString('hex');
let addresses = 0;
const newAddress = (kind: string) => `bench-${kind}-${run}-${++addresses}@example.com`;
let clients = 0;
// A new client address for every request (198.18.0.0/15, the benchmarking range): 30 codes a day each.
const newClient = () => `198.18.${(++clients >> 8) & 255}.${clients & 255}`;

async function accounts(count: number): Promise<string[]> {
  const emails: string[] = [];
  for (let i = 0; i < count; i++) {
    const email = newAddress('account');
    await createUser(database.db, { email });
    emails.push(email);
  }
  return emails;
}

interface Scene {
  name: string;
  /** What "has an account" means for it. */
  registered: string;
  unregistered: string;
  headers: Record<string, string>;
}

async function codeRequest(scene: Scene, email: string): Promise<number> {
  const started = performance.now();
  const reply = await app.inject({
    method: 'POST',
    url: '/web/login/verify_email',
    payload: { email, scene: scene.name },
    headers: scene.headers,
    remoteAddress: newClient(),
  });
  const elapsed = performance.now() - started;
  if (reply.json<{ code: number }>().code !== 200) throw new Error(`code request failed: ${reply.body}`);
  return elapsed;
}

/**
 * Times pairs of requests, one of each kind, in a random order within each pair so that neither
 * kind always goes first. Each pair's difference is taken at once, so that a load that comes and
 * goes on the machine weighs on both of its requests alike.
 */
async function measure(scene: Scene, pairs: number) {
  const taken = await accounts(pairs);
  const times = { registered: [] as number[], unregistered: [] as number[], differences: [] as number[] };
  for (const email of taken) {
    const pair = { registered: 0, unregistered: 0 };
    const both = [
      async () => (pair.registered = await codeRequest(scene, email)),
      async () => (pair.unregistered = await codeRequest(scene, newAddress('free'))),
    ];
    if (Math.random() < 0.5) both.reverse();
    for (const request of both) {
      await request();
      await sleep(PAUSE_MS);
    }
    times.registered.push(pair.registered);
    times.unregistered.push(pair.unregistered);
    times.differences.push(pair.registered - pair.unregistered);
  }
  return times;
}

try {
  // The change-of-address scene is a signed-in user's.
  const owner = await createUser(database.db, { email: newAddress('owner') });
  const token = await createSession(database.db, owner.id);
  const scenes: Scene[] = [
    { name: 'forget', registered: 'registered', unregistered: 'unknown', headers: {} },
    { name: 'email', registered: 'taken', unregistered: 'free', headers: { authorization: token } },
    { name: 'register', registered: 'taken', unregistered: 'free', headers: {} },
  ];
  console.log(`database: ${database.kind}; ${PAIRS} requests of each kind per scene`);
  let over = false;
  for (const scene of scenes) {
    await measure(scene, WARM_UP_PAIRS);
    const times = await measure(scene, PAIRS);
    const difference = median(times.differences);
    over ||= Math.abs(difference) >= BUDGET_MS;
    console.log(
      `${scene.name}: ${scene.registered} p50 ${ms(median(times.registered))}, ` +
        `${scene.unregistered} p50 ${ms(median(times.unregistered))}, ` +
        `median difference ${ms(difference)} (budget under ${BUDGET_MS} ms) ${Math.abs(difference) < BUDGET_MS ? 'OK' : 'OVER'}`,
    );
  }
  if (over) process.exitCode = 1;
} finally {
  await app.close();
  await database.close();
}
