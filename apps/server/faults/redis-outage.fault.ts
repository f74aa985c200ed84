import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Account, requestRegistrationCode, seedAccounts } from './harness/accounts.ts';
import { webReplyProblem } from './harness/envelope.ts';
import {
  dataOf,
  describeExchange,
  elapsedOf,
  type Exchange,
  jsonOf,
  postJson,
  send,
} from './harness/http.ts';
import type { Instance } from './harness/instances.ts';
import { waitUntil } from '../src/testing/poll.ts';
import { randomClientAddress, uniqueEmail } from './harness/random.ts';
import { type FaultStack, startFaultStack } from './harness/stack.ts';
import { faultSettings } from './harness/settings.ts';
import { startRedisProxy } from '../src/testing/tcp-proxy.ts';

/**
 * Redis holds the limit counters that instances share. Without it an instance must keep serving
 * (counting in process), say so in /healthz and once in its log, and share its counters again as
 * soon as Redis is back: whether Redis was missing at start, cut, or silently swallowing traffic.
 */

/** "Within about a second": the longest a call may take while Redis is away. */
const CALL_BUDGET_MS = 1500;
/** How soon /healthz must notice Redis leaving or coming back. */
const HEALTH_NOTICE_MS = 5000;

let stack: FaultStack;
let accounts: Account[];
afterAll(() => stack?.cleanup());
beforeAll(async () => {
  stack = await startFaultStack();
  accounts = await seedAccounts(stack.database, 8, 'redis');
}, 60_000);

type RedisHealth = 'ok' | 'degraded' | 'off';

async function health(instance: Instance): Promise<{ status?: number; body: Record<string, unknown> }> {
  const reply = await send(instance, { path: '/healthz', timeoutMs: 3000 });
  return { status: reply.status, body: (jsonOf(reply) ?? {}) as Record<string, unknown> };
}

const redisOf = (body: Record<string, unknown>) =>
  (body.dependencies as { redis?: RedisHealth } | undefined)?.redis;

/** Waits until every instance's /healthz reports `redis` as given; returns the time it took. */
async function healthSays(instances: Instance[], redis: RedisHealth): Promise<number> {
  const expectedStatus = redis === 'degraded' ? 'degraded' : 'ok';
  let slowest = 0;
  for (const instance of instances) {
    const { elapsedMs } = await waitUntil(
      `${instance.name}'s /healthz saying redis: '${redis}'`,
      async () => {
        const { status, body } = await health(instance);
        if (status === 200 && body.status === expectedStatus && redisOf(body) === redis) return true;
        throw new Error(`${status} ${JSON.stringify(body)}`);
      },
      { timeoutMs: HEALTH_NOTICE_MS, intervalMs: 200 },
    );
    slowest = Math.max(slowest, elapsedMs);
  }
  return slowest;
}

/**
 * Everyday calls on one instance: each counts against the per-address call ceiling in Redis, and
 * sign-in, code request and order/create count their own limits there too.
 */
async function everydayCalls(instance: Instance, account: Account): Promise<Exchange[]> {
  const ip = randomClientAddress();
  const login = await postJson(
    instance,
    '/web/login/login',
    { email: account.email, password: account.password },
    { ip, timeoutMs: 10_000 },
  );
  const token = String(dataOf(login).token);
  const code = await requestRegistrationCode(instance, uniqueEmail('redis-code'), ip);
  const order = await postJson(
    instance,
    '/web/order/create',
    { period: 'month', connections: 1 },
    { ip, token, timeoutMs: 10_000 },
  );
  const info = await postJson(instance, '/web/user/info', {}, { ip, token, timeoutMs: 10_000 });
  return [login, code, order, info];
}

function problemsOf(exchanges: Exchange[]): string[] {
  return exchanges.flatMap((exchange) => {
    const problem =
      exchange.status !== 200
        ? `status ${exchange.status ?? 'none'}`
        : (webReplyProblem(exchange) ??
          (elapsedOf(exchange) > CALL_BUDGET_MS ? `took ${Math.round(elapsedOf(exchange))} ms` : undefined));
    return problem ? [`${problem}: ${describeExchange(exchange)}`] : [];
  });
}

/** A code request for one address on `first`, then at once on `second`: shared counters refuse the second. */
async function expectSharedLimits(first: Instance, second: Instance): Promise<void> {
  const email = uniqueEmail('shared-limit');
  const one = await requestRegistrationCode(first, email);
  expect(one.status, describeExchange(one)).toBe(200);
  const two = await requestRegistrationCode(second, email);
  expect(two.status, `the second instance did not see the first one's count: ${describeExchange(two)}`).toBe(
    429,
  );
  expect(dataOf(two).reason).toBe('code_resend_too_soon');
}

/** Warn-or-worse log lines of an instance that mention Redis. */
const redisWarnings = (instance: Instance) => instance.warnings().filter((line) => /redis/i.test(line.text));

describe('Redis unreachable when the instances start', () => {
  let proxy: Awaited<ReturnType<typeof startRedisProxy>>;
  let started: Instance[] = [];
  /** The instances, once both started: a test that needs them fails rather than passing over none. */
  const instances = () => {
    expect(started, 'instances that started without Redis').toHaveLength(2);
    return started;
  };

  beforeAll(async () => {
    proxy = await startRedisProxy(faultSettings().redisUrl, 'refuse');
    stack.defer(() => proxy.close());
  });

  it('starts both instances', async () => {
    started = await stack.startInstances(['a', 'b'], { REDIS_URL: proxy.url });
    expect(started.every((instance) => instance.running())).toBe(true);
  });

  it('answers sign-in, code request, order/create and user/info normally on both', async () => {
    const problems: string[] = [];
    for (const [i, instance] of instances().entries()) {
      problems.push(...problemsOf(await everydayCalls(instance, accounts[i] as Account)));
    }
    expect(problems).toEqual([]);
  });

  it("reports redis: 'degraded' on /healthz with status 200", async () => {
    for (const instance of instances()) {
      const { status, body } = await health(instance);
      expect(status).toBe(200);
      expect(body).toMatchObject({ status: 'degraded', dependencies: { database: 'ok', redis: 'degraded' } });
    }
  });

  it('says so in its log once, not per request', async () => {
    // More calls than the few above, so that a warning per request would show.
    for (const instance of instances()) {
      for (let i = 0; i < 10; i += 1) await requestRegistrationCode(instance, uniqueEmail('redis-log'));
    }
    for (const instance of instances()) {
      const lines = redisWarnings(instance).map((line) => line.text);
      expect(lines, `${instance.name}'s warnings about Redis`).toHaveLength(1);
    }
  });

  it('reports ok within a few seconds once Redis comes through, and shares its limits again', async () => {
    const [a, b] = instances() as [Instance, Instance];
    await proxy.pass();
    const took = await healthSays([a, b], 'ok');
    console.info(`redis back after a start without it: /healthz ok after ${Math.round(took)} ms`);
    await expectSharedLimits(a, b);
    await expectSharedLimits(b, a);
  });
});

describe('Redis cut while the instances run', () => {
  let proxy: Awaited<ReturnType<typeof startRedisProxy>>;
  let instances: Instance[] = [];

  beforeAll(async () => {
    proxy = await startRedisProxy(faultSettings().redisUrl, 'pass');
    stack.defer(() => proxy.close());
    instances = await stack.startInstances(['c', 'd'], { REDIS_URL: proxy.url });
    await healthSays(instances, 'ok');
  }, 90_000);

  it('shares limits while Redis answers', async () => {
    await expectSharedLimits(instances[0] as Instance, instances[1] as Instance);
  });

  describe.each([
    { fault: 'connections dropped and new ones refused', cut: () => proxy.refuse() },
    { fault: 'a black hole: connections accepted, nothing answered', cut: () => proxy.blackhole() },
  ])('$fault', ({ cut }) => {
    it(`answers every call normally within ${CALL_BUDGET_MS} ms`, async () => {
      await cut();
      const problems: string[] = [];
      // Twice: the first calls meet the cut connection, the next ones the instance's view of it.
      for (let round = 0; round < 2; round += 1) {
        for (const [i, instance] of instances.entries()) {
          problems.push(...problemsOf(await everydayCalls(instance, accounts[2 + i] as Account)));
        }
      }
      expect(problems).toEqual([]);
    });

    it("reports redis: 'degraded' on /healthz (status 200)", async () => {
      const took = await healthSays(instances, 'degraded');
      console.info(`redis cut: /healthz degraded after ${Math.round(took)} ms`);
    });

    it('reports ok again once Redis is back, and shares its limits again', async () => {
      await proxy.pass();
      const took = await healthSays(instances, 'ok');
      console.info(`redis back: /healthz ok after ${Math.round(took)} ms`);
      await expectSharedLimits(instances[1] as Instance, instances[0] as Instance);
    });
  });

  it('kept both instances running through it all', () => {
    for (const instance of instances) expect(instance.running(), instance.tail()).toBe(true);
  });
});
