import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Account, seedAccounts } from './harness/accounts.ts';
import { judge } from './harness/envelope.ts';
import { dataOf, describeExchange, type Exchange, postJson, send } from './harness/http.ts';
import type { Instance } from './harness/instances.ts';
import { type Recorded, startLoad, summarize } from './harness/load.ts';
import { hold, waitUntil } from '../src/testing/poll.ts';
import { randomClientAddress } from './harness/random.ts';
import { type FaultStack, startFaultStack } from './harness/stack.ts';

/**
 * Database failover: under a steady load of sign-ins, orders, sandbox payments and user/info over
 * two instances, every backend of the database is terminated several times (as a failover or a
 * restart of PostgreSQL does). Each reply must be a normal one or the 503 envelope, the instances
 * must live through it and recover within seconds, and no payment may be lost or counted twice.
 */

const RATE_PER_SECOND = 60;
const SHOPPERS = 40;
const WARM_UP_MS = 3000;
const TERMINATIONS = 10;
const BETWEEN_TERMINATIONS_MS = 300;
/** Failures must stop this soon after the last termination. */
const RECOVERY_MS = 5000;
/** Load keeps running this long after the last termination, to see the recovery. */
const AFTER_MS = RECOVERY_MS + 3000;

/** A virtual buyer: signs in, then orders a month, pays it on the sandbox checkout, reads user/info. */
class Shopper {
  readonly ip = randomClientAddress();
  token: string | undefined;
  next: 'create' | 'pay' | 'info' = 'create';
  order: { id: string; payPath: string } | undefined;
  cycles = 0;
  constructor(readonly account: Account) {}
}

let stack: FaultStack;
let instances: Instance[];
const records: Recorded[] = [];
/** Orders whose Pay got the sandbox's success (its 303 back to the order). */
const paidOrders = new Set<string>();
const terminations: { at: number; backends: number }[] = [];

function record(op: string, exchange: Exchange, expectedStatus: number, isWebCall = true): boolean {
  const verdict = judge(exchange, expectedStatus, isWebCall);
  records.push({ op, exchange, verdict });
  return verdict === 'normal';
}

async function shopperStep(shopper: Shopper, instance: Instance, agent: http.Agent): Promise<void> {
  const call = (path: string, payload: unknown) =>
    postJson(instance, path, payload, { ip: shopper.ip, token: shopper.token, agent, timeoutMs: 15_000 });
  if (!shopper.token) {
    const reply = await call('/web/login/login', {
      email: shopper.account.email,
      password: shopper.account.password,
    });
    if (record('login', reply, 200)) shopper.token = String(dataOf(reply).token);
    return;
  }
  if (shopper.next === 'create') {
    const reply = await call('/web/order/create', { period: 'month', connections: 1 });
    if (record('order/create', reply, 200)) {
      const data = dataOf(reply);
      // The checkout page's Pay button posts its form to <checkout path>/pay.
      const checkout = new URL(String(data.checkout_url), 'http://site');
      shopper.order = { id: String(data.order_id), payPath: `${checkout.pathname}/pay` };
      shopper.next = 'pay';
    }
    return;
  }
  if (shopper.next === 'pay' && shopper.order) {
    const reply = await send(instance, {
      method: 'POST',
      path: shopper.order.payPath,
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': shopper.ip },
      body: '',
      agent,
      timeoutMs: 15_000,
    });
    // A failed Pay is tried again on the next step: the order stays payable.
    if (record('pay', reply, 303, false)) {
      paidOrders.add(shopper.order.id);
      shopper.next = 'info';
    }
    return;
  }
  const reply = await call('/web/user/info', {});
  if (record('user/info', reply, 200)) {
    shopper.next = 'create';
    shopper.cycles += 1;
    // Now and then a fresh sign-in, so sign-ins run during the fault too.
    if (shopper.cycles % 3 === 0) shopper.token = undefined;
  }
}

beforeAll(async () => {
  stack = await startFaultStack();
  instances = await stack.startInstances(['a', 'b']);
  const accounts = await seedAccounts(stack.database, SHOPPERS, 'shopper');
  const agents = instances.map(() => new http.Agent({ keepAlive: true, maxSockets: 16 }));
  stack.defer(() => agents.forEach((agent) => agent.destroy()));

  const load = startLoad({
    ratePerSecond: RATE_PER_SECOND,
    clients: accounts.map((account) => new Shopper(account)),
    step: (shopper, sequence) =>
      shopperStep(shopper, instances[sequence % 2] as Instance, agents[sequence % 2] as http.Agent),
  });
  try {
    await hold(WARM_UP_MS);
    for (let i = 0; i < TERMINATIONS; i += 1) {
      if (i > 0) await hold(BETWEEN_TERMINATIONS_MS);
      // On a busy machine the pools may not have reconnected yet; a termination of nothing is no fault.
      await waitUntil(
        'the instances to reconnect',
        async () => ((await stack.database.liveBackends()) > 0 ? true : undefined),
        {
          timeoutMs: RECOVERY_MS,
          intervalMs: 20,
        },
      );
      terminations.push({ at: performance.now(), backends: await stack.database.terminateBackends() });
    }
    await hold(AFTER_MS);
  } finally {
    await load.stop();
  }
  console.info(
    `database failover: ${load.started()} steps (${load.missed()} ticks missed); ` +
      `terminated ${terminations.map((t) => t.backends).join(', ')} backends; ${summarize(records)}`,
  );
  expect(load.errors()).toEqual([]);
}, 120_000);

afterAll(() => stack?.cleanup());

const lastTermination = () => terminations.at(-1)?.at ?? 0;

describe('database failover under load', () => {
  it('terminated live backends every time (the fault really happened)', () => {
    expect(terminations).toHaveLength(TERMINATIONS);
    for (const termination of terminations) expect(termination.backends).toBeGreaterThan(0);
  });

  it('keeps both processes running', () => {
    for (const instance of instances) {
      expect(instance.running(), `${instance.name} exited:\n${instance.tail()}`).toBe(true);
    }
  });

  it('answers every call with its normal reply or the 503 envelope: never a 500, never a dropped connection', () => {
    const bad = records.filter((r) => r.verdict === 'bad');
    expect(
      bad.map((r) => `${r.op}: ${describeExchange(r.exchange)}`).slice(0, 20),
      `${bad.length} of ${records.length} replies were neither normal nor the 503 envelope`,
    ).toEqual([]);
  });

  it(`stops failing within ${RECOVERY_MS / 1000} s of the last termination, and calls succeed again`, async () => {
    const settledAt = lastTermination() + RECOVERY_MS;
    const late = records.filter((r) => r.exchange.startedAt > settledAt && r.verdict !== 'normal');
    expect(
      late
        .map(
          (r) =>
            `${r.op} sent ${Math.round(r.exchange.startedAt - lastTermination())} ms after: ${describeExchange(r.exchange)}`,
        )
        .slice(0, 20),
      'calls sent after the recovery window that still failed',
    ).toEqual([]);
    for (const instance of instances) {
      const served = records.filter(
        (r) =>
          r.exchange.target === instance.name && r.exchange.startedAt > settledAt && r.verdict === 'normal',
      );
      expect(served.length, `normal replies from ${instance.name} after the recovery window`).toBeGreaterThan(
        10,
      );
      const health = await send(instance, { path: '/healthz', timeoutMs: 5000 });
      expect(health.status, describeExchange(health)).toBe(200);
    }
  });

  it('paid every order whose payment succeeded, with exactly one purchase in the ledger per paid order', async () => {
    expect(paidOrders.size, 'payments that succeeded during the run').toBeGreaterThan(20);
    const unpaid = await stack.database.query<{ id: string; status: string }>(
      'select id, status from orders where id = any($1) and status <> $2',
      [[...paidOrders], 'paid'],
    );
    expect(unpaid, 'orders whose payment succeeded but that are not paid').toEqual([]);
    const ledgerMismatch = await stack.database.query<{ id: string; purchases: string; credited: string }>(
      `select id, purchases, credited from (
         select o.id,
                (select count(*) from expiry_ledger l where l.reason = 'purchase' and l.ref = o.id) as purchases,
                (select count(*) from payments p where p.order_id = o.id and p.outcome = 'credited') as credited
         from orders o where o.status = 'paid'
       ) counted
       where purchases <> 1 or credited <> 1`,
    );
    expect(ledgerMismatch, 'paid orders without exactly one purchase row and one credited payment').toEqual(
      [],
    );
    const strayPurchases = await stack.database.query<{ ref: string | null }>(
      `select l.ref from expiry_ledger l left join orders o on o.id = l.ref
       where l.reason = 'purchase' and (o.id is null or o.status <> 'paid')`,
    );
    expect(strayPurchases, 'purchase rows for orders that are not paid').toEqual([]);
  });

  it('gives each account exactly the time its paid orders add up to', async () => {
    // Every order is one month at one connection: the first starts the access, each next one adds
    // its days to the expiry, so expire_at = the first payment (to the second) + the days paid for.
    const accounts = await stack.database.query<{
      email: string;
      expire: string | null;
      expected: string | null;
      paid: string;
    }>(
      `select u.email,
              extract(epoch from u.expire_at)::bigint::text as expire,
              (floor(extract(epoch from min(o.paid_at))) + coalesce(sum(o.days), 0) * 86400)::bigint::text as expected,
              count(o.id)::text as paid
       from users u left join orders o on o.user_id = u.id and o.status = 'paid'
       group by u.id`,
    );
    const wrong = accounts.filter((a) => a.expire !== a.expected);
    expect(wrong, 'accounts whose expiry is not what their paid orders add up to').toEqual([]);
    const paid = accounts.reduce((sum, a) => sum + Number(a.paid), 0);
    expect(paid).toBeGreaterThanOrEqual(paidOrders.size);
  });
});
