// `npm run bench:codes`: whether the time of a call tells if an address has an account, timed as
// an outsider would: a client over HTTP against the real app, two instances of it sharing the
// database with DATABASE_URL (and Redis with REDIS_URL), mail going to a real SMTP server (SMTP_URL,
// else one started here).
// Requests for addresses with an account and without one strictly take turns, with no pause, so
// that whatever a request leaves running after its reply (a mail's delivery) weighs on the next one,
// which is always of the other kind; each goes to either instance at random, from a client address
// and for an e-mail address of its own (so no limit applies). Per scene and run it prints both
// medians, the median difference between neighbouring requests of the two kinds, and the AUC: the
// chance that a random time of the registered kind exceeds a random time of the other (0.5:
// indistinguishable). Budget, on all runs' samples together: AUC within 0.5 ± 0.1 and a median
// difference under 1 ms; exits 1 when over.
// DATABASE_URL measures on PostgreSQL, else on the embedded database.
import { randomBytes, randomInt } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { createSession } from '../src/modules/sessions/repository.ts';
import { createUser } from '../src/modules/users/repository.ts';
import { startSmtpCatcher } from '../src/testing/smtp-catcher.ts';
import { benchApp, median } from './bench-app.ts';

const RUNS = 3;
const WARM_UP = 20;
const AUC_BUDGET = 0.1;
const MEDIAN_BUDGET_MS = 1;
const WRONG_CODE = '000000';
const PASSWORD = 'bench reset password 42';

const ms = (value: number) => `${value.toFixed(3)} ms`;

const smtp = process.env.SMTP_URL ? undefined : await startSmtpCatcher(0, { keep: false });
const env = {
  TRUST_PROXY: 'true',
  SMTP_URL: process.env.SMTP_URL ?? smtp?.url ?? '',
  ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
};
// Two instances share a PostgreSQL database; the embedded one is an instance's own.
const first = await benchApp(env);
const instances = [first, ...(process.env.DATABASE_URL ? [await benchApp(env)] : [])];
const origins = await Promise.all(instances.map(({ app }) => app.listen({ host: '127.0.0.1', port: 0 })));
const { database } = first;

const run = randomBytes(4).toString('hex');
let addresses = 0;
const newAddress = (kind: string) => `bench-${kind}-${run}-${++addresses}@example.com`;
// A new client address for every request, in the benchmarking range 198.18.0.0/15 from a random
// start (Redis keeps the counts of earlier runs for a day): 30 codes a day each.
let clients = randomInt(1 << 17);
const newClient = () => {
  clients = (clients + 1) % (1 << 17);
  return `198.${18 + (clients >> 16)}.${(clients >> 8) & 255}.${clients & 255}`;
};

async function post(path: string, body: object, headers: Record<string, string> = {}) {
  const origin = origins[randomInt(origins.length)];
  const started = performance.now();
  const res = await fetch(`${origin}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': newClient(), ...headers },
    body: JSON.stringify(body),
  });
  const reply = (await res.json()) as { code: number; data?: { reason?: string } };
  return { elapsed: performance.now() - started, reply };
}

interface Scene {
  name: string;
  /** What the two kinds of address are to it. */
  registered: string;
  unregistered: string;
  /** One timed call for the address. */
  call(email: string): Promise<number>;
}

function codeRequest(scene: string, headers: Record<string, string> = {}) {
  return async (email: string) => {
    const { elapsed, reply } = await post('/web/login/verify_email', { email, scene }, headers);
    if (reply.code !== 200) throw new Error(`code request failed: ${JSON.stringify(reply)}`);
    return elapsed;
  };
}

/** A reset code is asked for (untimed, as anyone would first), then the reset with a wrong code is timed. */
async function wrongCodeReset(email: string): Promise<number> {
  await codeRequest('forget')(email);
  const { elapsed, reply } = await post('/web/login/forget', {
    email,
    email_code: WRONG_CODE,
    password: PASSWORD,
  });
  if (reply.data?.reason !== 'code_invalid')
    throw new Error(`reset did not fail as expected: ${JSON.stringify(reply)}`);
  return elapsed;
}

async function accounts(count: number): Promise<string[]> {
  const emails: string[] = [];
  for (let i = 0; i < count; i++) {
    const email = newAddress('account');
    await createUser(database.db, { email });
    emails.push(email);
  }
  return emails;
}

/** The chance that a random figure of `a` exceeds a random one of `b`, ties counting half. */
function auc(a: number[], b: number[]): number {
  let wins = 0;
  for (const x of a) for (const y of b) wins += x > y ? 1 : x === y ? 0.5 : 0;
  return wins / (a.length * b.length);
}

interface Times {
  registered: number[];
  unregistered: number[];
}

/** `count` calls of each kind, taking turns, the first kind drawn at random. */
async function measure(scene: Scene, count: number) {
  const taken = await accounts(count);
  const times: Times = { registered: [], unregistered: [] };
  const registeredFirst = Math.random() < 0.5;
  for (const email of taken) {
    const pair = [
      async () => times.registered.push(await scene.call(email)),
      async () => times.unregistered.push(await scene.call(newAddress('free'))),
    ];
    if (!registeredFirst) pair.reverse();
    for (const call of pair) await call();
  }
  return times;
}

/**
 * The median of the differences between each registered-kind time and the other kind's taken next
 * to it (a load that comes and goes on the machine weighs on both alike), and the AUC.
 */
function verdict(times: Times) {
  const difference = median(times.registered.map((time, i) => time - (times.unregistered[i] ?? 0)));
  const area = auc(times.registered, times.unregistered);
  const within = Math.abs(area - 0.5) <= AUC_BUDGET && Math.abs(difference) < MEDIAN_BUDGET_MS;
  return { difference, area, within };
}

function report(scene: Scene, label: string, times: Times) {
  const { difference, area, within } = verdict(times);
  console.log(
    `${scene.name} ${label}: ${scene.registered} p50 ${ms(median(times.registered))}, ` +
      `${scene.unregistered} p50 ${ms(median(times.unregistered))}, median difference ${ms(difference)}, ` +
      `AUC ${area.toFixed(3)} (n = ${times.registered.length} each)${within ? '' : ' OVER'}`,
  );
  return within;
}

try {
  // The change-of-address scene is a signed-in user's.
  const owner = await createUser(database.db, { email: newAddress('owner') });
  const signedIn = { authorization: await createSession(database.db, owner.id) };
  const scenes: (Scene & { samples: number })[] = [
    { name: 'reset', registered: 'registered', unregistered: 'unknown', samples: 100, call: wrongCodeReset },
    {
      name: 'forget',
      registered: 'registered',
      unregistered: 'unknown',
      samples: 200,
      call: codeRequest('forget'),
    },
    {
      name: 'email',
      registered: 'taken',
      unregistered: 'free',
      samples: 200,
      call: codeRequest('email', signedIn),
    },
    {
      name: 'register',
      registered: 'taken',
      unregistered: 'free',
      samples: 200,
      call: codeRequest('register'),
    },
  ];
  console.log(
    `database: ${database.kind}${env.REDIS_URL ? ', counters in Redis' : ''}; ${instances.length} instance(s) over HTTP; ` +
      `${RUNS} runs; budget on all runs together: AUC 0.5 ± ${AUC_BUDGET}, median difference under ${MEDIAN_BUDGET_MS} ms`,
  );
  let over = false;
  for (const scene of scenes) {
    await measure(scene, WARM_UP);
    const all: Times = { registered: [], unregistered: [] };
    for (let i = 1; i <= RUNS; i++) {
      const times = await measure(scene, scene.samples);
      report(scene, `run ${i}`, times);
      all.registered.push(...times.registered);
      all.unregistered.push(...times.unregistered);
    }
    const within = report(scene, 'all runs', all);
    console.log(`${scene.name}: ${within ? 'OK' : 'OVER'}`);
    over ||= !within;
  }
  if (over) process.exitCode = 1;
} finally {
  for (const { app, database: handle } of instances) {
    await app.close();
    await handle.close();
  }
  await smtp?.close();
}
