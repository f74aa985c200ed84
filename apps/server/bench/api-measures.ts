import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { expectOk } from '../faults/harness/accounts.ts';
import {
  dataOf,
  describeExchange,
  elapsedOf,
  type Exchange,
  postJson,
  send,
} from '../faults/harness/http.ts';
import { randomClientAddress } from '../faults/harness/random.ts';
import { hash } from '@node-rs/argon2';
import { ARGON2ID } from '../src/lib/passwords.ts';
import { median } from './bench-app.ts';
import { closedLoop, percentile } from './api-load.ts';
import type { Measured } from './api-processes.ts';
import { SEEDED_PASSWORD, seededEmail } from './api-seed.ts';

/** How long and how much each measurement runs: the full bench, or its quick mode. */
export interface Effort {
  connections: number;
  warmUpMs: number;
  loadMs: number;
  /** Sequential requests per figure (lists, sign-ins, hashes, idle health checks). */
  samples: number;
  /** Sign-ins sent at once in each burst, and how long bursts follow one another. */
  burst: number;
  burstMs: number;
  /** How long a process is left alone after starting before its memory is read. */
  settleMs: number;
}

/** Resident memory once the process has started and been left alone. */
export async function idleMemoryMb(app: Measured, effort: Effort): Promise<number> {
  await sleep(effort.settleMs);
  return app.rssMb();
}

export interface HotRead {
  perSecond: number;
  p99Ms: number;
  eventLoopP99Ms: number;
  /** Resident memory right after the load, MB. */
  rssAfterMb: number;
  /** Calls still unanswered well after the load (counted in the p99 with the time they waited). */
  unanswered: number;
}

/**
 * `POST /web/user/info` at `effort.connections` keep-alive connections, signed in (the reference
 * apps ignore the token): requests per second, latency p99, and the server's event-loop delay p99.
 * On PostgreSQL the product reads the signed-in lookup once and then keeps it in memory, as it does
 * for the calls a console page makes in a row (`sessions/signed-in-cache.ts`).
 * Fails rather than report a figure of replies other than successful ones.
 */
export async function hotRead(app: Measured, token: string, effort: Effort): Promise<HotRead> {
  const spec = {
    method: 'POST' as const,
    path: '/web/user/info',
    headers: { authorization: `Bearer ${token}` },
    body: {},
  };
  const load = { connections: effort.connections };
  await closedLoop(app.instance, spec, { ...load, durationMs: effort.warmUpMs });
  await app.eventLoopDelay();
  const figures = await closedLoop(app.instance, spec, { ...load, durationMs: effort.loadMs });
  const loop = await app.eventLoopDelay();
  if (figures.failures > 0)
    throw new Error(
      `${app.instance.name}: ${figures.failures} of ${figures.requests} user/info calls failed; first: ${figures.firstFailure}`,
    );
  return {
    perSecond: figures.perSecond,
    p99Ms: figures.p99Ms,
    eventLoopP99Ms: loop.p99,
    rssAfterMb: app.rssMb(),
    unanswered: figures.unanswered,
  };
}

/** Sequential requests sent first and not counted: they open the connection and warm the caches. */
const WARM_UP = 5;

const keepAlive = () => new http.Agent({ keepAlive: true });

/** A call that must answer 200 with the envelope (and the security headers): its time, and its data. */
async function timedCall(app: Measured, path: string, payload: unknown, token?: string, agent?: http.Agent) {
  const exchange = expectOk(
    await postJson(app.instance, path, payload, { ip: randomClientAddress(), token, agent }),
  );
  return { ms: elapsedOf(exchange), data: dataOf(exchange), exchange };
}

function expectListOf(reply: { data: Record<string, unknown>; exchange: Exchange }, total: number) {
  const list = reply.data.list;
  if (reply.data.total !== total || !Array.isArray(list) || list.length !== 10)
    throw new Error(`expected a page of 10 of ${total}: ${describeExchange(reply.exchange)}`);
}

/**
 * The inviter's `/web/invite/list` and, as its reference, `/web/order/list` (as many orders as
 * invitees) at one page of 10, one request at a time, the two lists alternating: p50 of each, ms.
 */
export async function listLatencies(
  app: Measured,
  token: string,
  listed: number,
  page: number,
  effort: Effort,
): Promise<{ invitationsMs: number; ordersMs: number }> {
  const agent = keepAlive();
  const times = { invitations: [] as number[], orders: [] as number[] };
  try {
    for (let i = 0; i < WARM_UP + effort.samples; i++) {
      const invitations = await timedCall(app, '/web/invite/list', { page, size: 10 }, token, agent);
      const orders = await timedCall(app, '/web/order/list', { page, size: 10 }, token, agent);
      expectListOf(invitations, listed);
      expectListOf(orders, listed);
      if (i < WARM_UP) continue;
      times.invitations.push(invitations.ms);
      times.orders.push(orders.ms);
    }
  } finally {
    agent.destroy();
  }
  return { invitationsMs: median(times.invitations), ordersMs: median(times.orders) };
}

const randomAccount = (accounts: number) => seededEmail(1 + Math.floor(Math.random() * accounts));

/** Signs a seeded account in over HTTP, from a new client address (no per-address limit applies). */
async function signIn(app: Measured, accounts: number, agent: http.Agent): Promise<number> {
  const reply = await timedCall(
    app,
    '/web/login/login',
    { email: randomAccount(accounts), password: SEEDED_PASSWORD },
    undefined,
    agent,
  );
  if (typeof reply.data.token !== 'string') throw new Error(`no token: ${describeExchange(reply.exchange)}`);
  return reply.ms;
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

/**
 * Sign-in p50 over HTTP against one argon2id hash in this process (bench:signin's comparison), one
 * of each at a time, alternating, so that a load that comes and goes weighs on both alike.
 */
export async function signInAndHash(
  app: Measured,
  accounts: number,
  effort: Effort,
): Promise<{ signInMs: number; hashMs: number }> {
  const agent = keepAlive();
  const signIns: number[] = [];
  const hashes: number[] = [];
  try {
    for (let i = 0; i < WARM_UP + effort.samples; i++) {
      // The library's own hash, as anyone would call it: the floor of a sign-in.
      const hashMs = await timed(() => hash(SEEDED_PASSWORD, ARGON2ID));
      const signInMs = await signIn(app, accounts, agent);
      if (i < WARM_UP) continue;
      hashes.push(hashMs);
      signIns.push(signInMs);
    }
  } finally {
    agent.destroy();
  }
  return { signInMs: median(signIns), hashMs: median(hashes) };
}

async function healthTimes(app: Measured, agent: http.Agent, until: () => boolean): Promise<number[]> {
  const times: number[] = [];
  while (!until()) {
    const exchange = await send(app.instance, { path: '/healthz', agent });
    if (exchange.status !== 200) throw new Error(`/healthz: ${describeExchange(exchange)}`);
    times.push(elapsedOf(exchange));
  }
  return times;
}

/**
 * `GET /healthz` p99, one check at a time, first idle, then during bursts of `effort.burst` sign-ins
 * at once (bench:signin's burst), one burst after another for `effort.burstMs`.
 */
export async function healthUnderSignIns(
  app: Measured,
  accounts: number,
  effort: Effort,
): Promise<{ idleP99Ms: number; burstP99Ms: number; signIns: number }> {
  const agent = keepAlive();
  const crowd = keepAlive();
  try {
    let checks = 0;
    // More checks than samples elsewhere: the p99 of 40 checks would be their largest.
    const idle = await healthTimes(app, agent, () => checks++ >= effort.samples * 5);
    let bursting = true;
    let signIns = 0;
    const bursts = (async () => {
      const until = performance.now() + effort.burstMs;
      try {
        while (performance.now() < until) {
          await Promise.all(Array.from({ length: effort.burst }, () => signIn(app, accounts, crowd)));
          signIns += effort.burst;
        }
      } finally {
        bursting = false;
      }
    })();
    // Awaited below, once the checks have stopped (a failed sign-in stops them at once).
    bursts.catch(() => undefined);
    const during = await healthTimes(app, agent, () => !bursting);
    await bursts;
    return { idleP99Ms: percentile(idle, 0.99), burstP99Ms: percentile(during, 0.99), signIns };
  } finally {
    agent.destroy();
    crowd.destroy();
  }
}
