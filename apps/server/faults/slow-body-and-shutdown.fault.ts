import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Account, seedAccounts } from './harness/accounts.ts';
import { envelopeProblem, isUnavailableEnvelope, judge } from './harness/envelope.ts';
import {
  dataOf,
  describeExchange,
  elapsedOf,
  type Exchange,
  openRaw,
  parseRawReply,
  postJson,
  type RawConnection,
} from './harness/http.ts';
import type { ExitStatus, Instance } from './harness/instances.ts';
import { type Recorded, startLoad, summarize } from './harness/load.ts';
import { hold } from '../src/testing/poll.ts';
import { randomClientAddress } from './harness/random.ts';
import { type FaultStack, startFaultStack } from './harness/stack.ts';

/**
 * A client that sends its headers and part of its body, then nothing, must not hold a connection
 * (nor a shutdown) for ever: it is cut after REQUEST_TIMEOUT_MS while others are served. And on
 * SIGTERM under load an instance finishes what it was sent and exits 0 within SHUTDOWN_TIMEOUT_MS,
 * as a rolling restart needs.
 */

const REQUEST_TIMEOUT_MS = 2000;
const SHUTDOWN_TIMEOUT_MS = 8000;
/** How late after REQUEST_TIMEOUT_MS the cut may come. */
const CUT_SLACK_MS = 1500;
const RATE_PER_SECOND = 30;
/** Calls served during the stall must not wait on it. */
const SERVED_BUDGET_MS = 1000;

let stack: FaultStack;
let instances: Instance[];
let accounts: Account[];

beforeAll(async () => {
  stack = await startFaultStack({
    env: { REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS), SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS) },
  });
  instances = await stack.startInstances(['a', 'b']);
  accounts = await seedAccounts(stack.database, 12, 'steady');
}, 90_000);
afterAll(() => stack?.cleanup());

/** Headers and 10 of the 120 bytes the body announces, then silence. */
async function stallMidBody(target: Instance): Promise<RawConnection> {
  const connection = await openRaw(target);
  connection.write(
    'POST /web/login/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
      `Content-Length: 120\r\nX-Forwarded-For: ${randomClientAddress()}\r\n\r\n{"email":"`,
  );
  return connection;
}

interface Caller {
  account: Account;
  ip: string;
  token?: string;
}

/** Steady traffic of everyday calls (site/conf, user/info, sign-in) over keep-alive connections. */
function steadyLoad(targets: Instance[], callers: Caller[]) {
  const records: Recorded[] = [];
  const agents = targets.map(() => new http.Agent({ keepAlive: true, maxSockets: 8 }));
  const load = startLoad({
    ratePerSecond: RATE_PER_SECOND,
    clients: callers,
    step: async (caller, sequence) => {
      const index = sequence % targets.length;
      const target = targets[index] as Instance;
      const options = { ip: caller.ip, token: caller.token, agent: agents[index], timeoutMs: 15_000 };
      const kind = sequence % 3;
      const op = kind === 0 ? 'site/conf' : kind === 1 && caller.token ? 'user/info' : 'login';
      const exchange =
        op === 'site/conf'
          ? await postJson(target, '/web/site/conf', {}, options)
          : op === 'user/info'
            ? await postJson(target, '/web/user/info', {}, options)
            : await postJson(
                target,
                '/web/login/login',
                { email: caller.account.email, password: caller.account.password },
                options,
              );
      const verdict = judge(exchange, 200);
      if (op === 'login' && verdict === 'normal') caller.token = String(dataOf(exchange).token);
      records.push({ op, exchange, verdict });
    },
  });
  return {
    records,
    stop: async () => {
      await load.stop();
      for (const agent of agents) agent.destroy();
      expect(load.errors()).toEqual([]);
    },
  };
}

const callersFor = (list: Account[]): Caller[] =>
  list.map((account) => ({ account, ip: randomClientAddress() }));

/** What a cut connection may have received: nothing, or a 408 in the envelope. */
function cutReplyProblem(received: string): string | undefined {
  if (received === '') return undefined;
  const reply = parseRawReply(received);
  if (reply.status !== 408) return `answered ${reply.status ?? 'garbage'}: ${received.slice(0, 200)}`;
  let json: unknown;
  try {
    json = JSON.parse(reply.body);
  } catch {
    return `408 without a JSON body: ${received.slice(0, 200)}`;
  }
  const problem = envelopeProblem(408, json);
  return problem ? `408 not in the envelope (${problem}): ${received.slice(0, 200)}` : undefined;
}

describe('a client whose body stalls', () => {
  it(`is cut ${REQUEST_TIMEOUT_MS} ms after it started (408 envelope or closed), while other calls are served`, async () => {
    const target = instances[0] as Instance;
    const load = steadyLoad([target], callersFor(accounts.slice(0, 6)));
    const stalled = await stallMidBody(target);
    const outcome = await Promise.race([
      stalled.closed,
      hold(REQUEST_TIMEOUT_MS + CUT_SLACK_MS + 3000).then(() => undefined),
    ]);
    stalled.socket.destroy();
    await load.stop();

    expect(
      outcome,
      `the stalled request was still open ${REQUEST_TIMEOUT_MS + CUT_SLACK_MS + 3000} ms later`,
    ).toBeDefined();
    if (!outcome) return;
    console.info(
      `stalled body: cut after ${Math.round(outcome.afterMs)} ms; steady load: ${summarize(load.records)}`,
    );
    expect(outcome.afterMs, 'cut before REQUEST_TIMEOUT_MS').toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 100);
    expect(outcome.afterMs, 'cut too long after REQUEST_TIMEOUT_MS').toBeLessThanOrEqual(
      REQUEST_TIMEOUT_MS + CUT_SLACK_MS,
    );
    expect(cutReplyProblem(outcome.received)).toBeUndefined();

    const unserved = load.records.filter(
      (r) => r.verdict !== 'normal' || elapsedOf(r.exchange) > SERVED_BUDGET_MS,
    );
    expect(unserved.map((r) => describeExchange(r.exchange))).toEqual([]);
    expect(load.records.length).toBeGreaterThan(30);
  });
});

describe('SIGTERM during steady load, with a stalled client connected', () => {
  let stopping: Instance;
  let other: Instance;
  let killedAt = 0;
  let exit: ExitStatus | undefined;
  let records: Recorded[] = [];
  let slowButComplete: { status?: number; body: string } | undefined;

  beforeAll(async () => {
    [stopping, other] = instances as [Instance, Instance];
    const load = steadyLoad([stopping, other], callersFor(accounts));
    records = load.records;
    try {
      await hold(1500);
      const stalled = await stallMidBody(stopping);
      stack.defer(() => stalled.socket.destroy());
      // A request in flight at the signal: its headers now, its body 400 ms later.
      const slow = await openRaw(stopping);
      slow.write(
        'POST /web/site/conf HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
          `Content-Length: 2\r\nConnection: close\r\nX-Forwarded-For: ${randomClientAddress()}\r\n\r\n`,
      );
      await hold(200);
      killedAt = performance.now();
      stopping.child.kill('SIGTERM');
      await hold(200);
      slow.write('{}');
      const slowReply = slow.closed.then(({ received }) => parseRawReply(received));
      exit = await Promise.race([stopping.exited, hold(SHUTDOWN_TIMEOUT_MS + 5000).then(() => undefined)]);
      slowButComplete = await Promise.race([slowReply, hold(1000).then(() => undefined)]);
      // The load goes on a moment after the exit, as a balancer's does until it notices.
      await hold(1000);
    } finally {
      await load.stop();
    }
    console.info(`shutdown under load: ${summarize(records)}`);
  }, 60_000);

  it(`exits with code 0 within SHUTDOWN_TIMEOUT_MS (${SHUTDOWN_TIMEOUT_MS} ms)`, () => {
    expect(
      exit,
      `still running ${SHUTDOWN_TIMEOUT_MS + 5000} ms after SIGTERM:\n${stopping.tail()}`,
    ).toBeDefined();
    if (!exit) return;
    console.info(`SIGTERM → exit ${exit.code} after ${Math.round(exit.at - killedAt)} ms`);
    expect({ code: exit.code, signal: exit.signal }, stopping.tail()).toEqual({ code: 0, signal: null });
    expect(exit.at - killedAt).toBeLessThanOrEqual(SHUTDOWN_TIMEOUT_MS);
  });

  it('completes every request sent before the signal normally: no 5xx, no reset', () => {
    const sentBefore = records.filter(
      (r) =>
        r.exchange.target === stopping.name &&
        r.exchange.sentAt !== undefined &&
        r.exchange.sentAt < killedAt,
    );
    expect(sentBefore.length).toBeGreaterThan(10);
    const failed = sentBefore.filter((r) => r.verdict !== 'normal');
    expect(failed.map((r) => describeExchange(r.exchange))).toEqual([]);
    expect(slowButComplete?.status, 'the request whose body came after the signal').toBe(200);
    expect(envelopeProblem(200, JSON.parse(slowButComplete?.body || 'null'))).toBeUndefined();
  });

  it('turns later requests away cleanly: refused, or the 503 envelope; never another 5xx or a bare reply', () => {
    const after = records.filter(
      (r) =>
        r.exchange.target === stopping.name &&
        !(r.exchange.sentAt !== undefined && r.exchange.sentAt < killedAt),
    );
    const wrong = after.filter((r) => {
      if (r.verdict === 'normal') return false;
      const exchange: Exchange = r.exchange;
      // Not served at all: a balancer retries these on another instance.
      if (exchange.error && exchange.status === undefined)
        return !['ECONNREFUSED', 'ECONNRESET', 'socket hang up', 'EPIPE'].includes(exchange.error);
      return !isUnavailableEnvelope(exchange);
    });
    expect(wrong.map((r) => describeExchange(r.exchange))).toEqual([]);
  });

  it('keeps the other instance serving normally throughout', () => {
    const served = records.filter((r) => r.exchange.target === other.name);
    expect(served.length).toBeGreaterThan(20);
    expect(served.filter((r) => r.verdict !== 'normal').map((r) => describeExchange(r.exchange))).toEqual([]);
  });
});
