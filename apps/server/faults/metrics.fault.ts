import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Account, seedAccounts, signIn } from './harness/accounts.ts';
import { describeExchange, postJson, send } from './harness/http.ts';
import type { Instance } from './harness/instances.ts';
import { type Exposition, names, parseExposition, samplesOf } from './harness/metrics.ts';
import { waitUntil } from '../src/testing/poll.ts';
import { randomClientAddress, uniqueEmail } from './harness/random.ts';
import { faultSettings } from './harness/settings.ts';
import { type FaultStack, startFaultStack } from './harness/stack.ts';
import { startRedisProxy } from '../src/testing/tcp-proxy.ts';

/**
 * GET /metrics: refused without METRICS_TOKEN, Prometheus text with it, naming what an operator
 * watches; the Redis fallback gauge shows a Redis outage.
 */

const METRICS = [
  'skyway_http_requests_total',
  'skyway_http_request_duration_seconds',
  'skyway_db_pool_connections',
  'skyway_db_errors_total',
  'skyway_redis_fallback',
  'skyway_mail_outbox_pending',
  'skyway_mail_outbox_failed',
  'skyway_mail_deliveries_total',
  'skyway_job_last_run_timestamp_seconds',
  'skyway_job_last_success',
];
const SITE_CONF_CALLS = 5;

let stack: FaultStack;
let instances: Instance[];
let account: Account;
let proxy: Awaited<ReturnType<typeof startRedisProxy>>;

beforeAll(async () => {
  stack = await startFaultStack();
  proxy = await startRedisProxy(faultSettings().redisUrl, 'pass');
  stack.defer(() => proxy.close());
  instances = await stack.startInstances(['a', 'b'], { REDIS_URL: proxy.url });
  [account] = (await seedAccounts(stack.database, 1, 'metrics')) as [Account];
  // Traffic to count: calls, a sign-in, a code request (a mail delivery).
  for (const instance of instances) {
    for (let i = 0; i < SITE_CONF_CALLS; i += 1) {
      await postJson(instance, '/web/site/conf', {}, { ip: randomClientAddress() });
    }
    await signIn(instance, account);
    await postJson(
      instance,
      '/web/login/verify_email',
      { email: uniqueEmail('metrics'), scene: 'register' },
      { ip: randomClientAddress() },
    );
  }
}, 90_000);
afterAll(() => stack?.cleanup());

const scrape = (instance: Instance, authorization?: string) =>
  send(instance, { path: '/metrics', headers: authorization ? { authorization } : {}, timeoutMs: 5000 });

async function exposition(instance: Instance): Promise<Exposition> {
  const reply = await scrape(instance, `Bearer ${stack.metricsToken}`);
  if (reply.status !== 200) throw new Error(describeExchange(reply));
  return parseExposition((reply.body ?? Buffer.alloc(0)).toString('utf8'));
}

const fallbackOf = (metrics: Exposition) => samplesOf(metrics, 'skyway_redis_fallback')[0]?.value;

describe('GET /metrics', () => {
  it('refuses a scrape without the token, or with a wrong one (401 or 404)', async () => {
    for (const instance of instances) {
      for (const authorization of [
        undefined,
        'Bearer wrong-token-0123456789',
        `Basic ${Buffer.from(`x:${stack.metricsToken}`).toString('base64')}`,
        stack.metricsToken.slice(1),
      ]) {
        const reply = await scrape(instance, authorization);
        expect([401, 404], `${authorization ?? 'no authorization'}: ${describeExchange(reply)}`).toContain(
          reply.status,
        );
        expect(reply.body?.toString('utf8') ?? '').not.toContain('skyway_');
      }
    }
  });

  it('answers Prometheus text with the token, naming every metric', async () => {
    for (const instance of instances) {
      const reply = await scrape(instance, `Bearer ${stack.metricsToken}`);
      expect(reply.status, describeExchange(reply)).toBe(200);
      expect(String(reply.headers?.['content-type'])).toMatch(/^text\/plain/);
      const metrics = parseExposition((reply.body ?? Buffer.alloc(0)).toString('utf8'));
      expect(
        METRICS.filter((metric) => !names(metrics, metric)),
        `metrics missing on ${instance.name}`,
      ).toEqual([]);
    }
  });

  it('counts requests by method, route and code, and times them', async () => {
    for (const instance of instances) {
      const metrics = await exposition(instance);
      const siteConf = samplesOf(metrics, 'skyway_http_requests_total', {
        method: 'POST',
        route: '/web/site/conf',
        code: '200',
      });
      expect(
        siteConf.map((sample) => sample.value),
        `${instance.name}'s count of POST /web/site/conf 200`,
      ).toEqual([SITE_CONF_CALLS]);
      const timed = samplesOf(metrics, 'skyway_http_request_duration_seconds_count', {
        route: '/web/site/conf',
      });
      expect(timed.reduce((sum, sample) => sum + sample.value, 0)).toBe(SITE_CONF_CALLS);
      const pool = samplesOf(metrics, 'skyway_db_pool_connections');
      expect(pool.length, 'pool connections by state').toBeGreaterThan(0);
      expect(pool.every((sample) => typeof sample.labels.state === 'string')).toBe(true);
      expect(fallbackOf(metrics)).toBe(0);
    }
  });

  it('sets skyway_redis_fallback to 1 after the Redis cut, and back to 0 when it returns', async () => {
    await proxy.refuse();
    for (const instance of instances) {
      // A call that counts in Redis, so the instance meets the cut.
      await postJson(
        instance,
        '/web/login/verify_email',
        { email: uniqueEmail('metrics-cut'), scene: 'register' },
        { ip: randomClientAddress() },
      );
      await waitUntil(
        `${instance.name}'s skyway_redis_fallback at 1`,
        async () => {
          const value = fallbackOf(await exposition(instance));
          if (value === 1) return true;
          throw new Error(`skyway_redis_fallback ${value}`);
        },
        { timeoutMs: 5000, intervalMs: 200 },
      );
    }
    await proxy.pass();
    for (const instance of instances) {
      await waitUntil(
        `${instance.name}'s skyway_redis_fallback back at 0`,
        async () => {
          const value = fallbackOf(await exposition(instance));
          if (value === 0) return true;
          throw new Error(`skyway_redis_fallback ${value}`);
        },
        { timeoutMs: 10_000, intervalMs: 200 },
      );
    }
  });
});
