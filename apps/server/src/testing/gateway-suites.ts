import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PayMethod } from '@skyway/shared/plans';
import type { GatewayKind } from '@skyway/shared/schemas/admin/gateways';
import { auditLog, orders, payments, providerNotices, users } from '../db/schema/index.ts';
import { NOTIFY_PER_MINUTE } from '../modules/payments/gateway-notify.ts';
import { PROVIDER_ASKED_EVERY_SECONDS } from '../modules/orders/service.ts';
import { runGatewayOrdersJob } from './gateways.ts';
import { type SignedInStaff, signedInStaff } from './staff.ts';
import {
  later,
  newClientAddress,
  signedInUser,
  type TestApp,
  useTestApp,
  useTwoTestApps,
  webCaller,
} from './test-app.ts';

/** The fields of a notify as a gateway sends them. */
export type NotifyFields = Record<string, string | number>;

/** What every gateway's stand-in does: the buyer pays an order there; it is closed after the suite. */
export interface GatewayStandIn {
  /** The buyer pays: the order is paid at the gateway, and its notify's fields are returned (not sent). */
  pay(orderId: string): NotifyFields;
  close(): Promise<void>;
}

/** A gateway kind as its tests drive it: its stand-in, how it is added, and how its notifies come. */
export interface GatewayUnderTest<S extends GatewayStandIn> {
  kind: GatewayKind;
  startStandIn: () => Promise<S>;
  addGateway: (owner: SignedInStaff, standIn: S) => Promise<string>;
  /** The method the shared tests' orders are paid with. */
  payMethod: PayMethod;
  /** The gateway's notify route, by gateway id. */
  notifyPath: (gatewayId: string) => string;
  /** A form (Epay, Alipay) or a JSON body (USDT). */
  notifyAs: 'form' | 'json';
  /** What the gateway is answered for a notify taken. */
  taken: string;
  /** Whether the buyer's browser must open the checkout for the stand-in to know the order. */
  opensCheckout?: boolean;
  /** The gateway's secret (a key, a token), which no reply, log line or audit row may carry. */
  secretOf: (standIn: S) => string;
}

/** What a gateway suite's servers are started with: SECRETS_KEY and PUBLIC_URL. */
type GatewayEnv = { SECRETS_KEY: string; PUBLIC_URL: string };

/** A buyer's order of a month for 2 connections, through a gateway. */
export interface GatewayOrder {
  order_id: string;
  amount: number;
  checkout_url: string;
  userId: string;
  token: string;
}

/**
 * Opens an order through the gateway as a buyer would: a new buyer unless `token` names one, the
 * gateway's method unless another is given; the checkout opened when the stand-in needs it.
 */
async function openGatewayOrder<S extends GatewayStandIn>(
  app: TestApp,
  gateway: GatewayUnderTest<S>,
  gatewayId: string,
  options: { token?: string; payMethod?: PayMethod } = {},
): Promise<GatewayOrder> {
  const buyer = options.token ? null : await signedInUser(app.database);
  const token = options.token ?? buyer?.token ?? '';
  const created = await webCaller(() => app.app, newClientAddress)(
    '/web/order/create',
    {
      period: 'month',
      connections: 2,
      pay_method: options.payMethod ?? gateway.payMethod,
      gateway_id: gatewayId,
    },
    token,
  );
  expect(created.statusCode, created.body).toBe(200);
  const order = created.json().data as { order_id: string; amount: number; checkout_url: string };
  if (gateway.opensCheckout) await fetch(order.checkout_url);
  const userId =
    buyer?.user.id ??
    (await app.database.db.select().from(orders).where(eq(orders.id, order.order_id)))[0]?.userId;
  return { ...order, userId: userId ?? '', token };
}

/** A notify delivered to a server as the gateway sends it: by POST (or GET, for a form), from `address`. */
function deliverNotify<S extends GatewayStandIn>(
  app: TestApp,
  gateway: GatewayUnderTest<S>,
  url: string,
  fields: NotifyFields,
  options: { method?: 'GET' | 'POST'; address?: string } = {},
): Promise<Reply> {
  const remoteAddress = options.address ?? newClientAddress();
  if (gateway.notifyAs === 'json')
    return app.app.inject({ method: 'POST', url, payload: fields, remoteAddress });
  const form = new URLSearchParams(
    Object.fromEntries(Object.entries(fields).map(([name, value]) => [name, String(value)])),
  );
  return options.method === 'GET'
    ? app.app.inject({ method: 'GET', url: `${url}?${form}`, remoteAddress })
    : app.app.inject({
        method: 'POST',
        url,
        payload: form.toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        remoteAddress,
      });
}

/**
 * What a gateway's tests read back: an order's row, its buyer's expiry, an order's payments, and the
 * gateway's notifies refused for a reason.
 */
function gatewayRecords(app: () => TestApp, provider: () => string) {
  const db = () => app().database.db;
  return {
    orderRow: async (id: string) => (await db().select().from(orders).where(eq(orders.id, id)))[0],
    expiryOf: async (userId: string) =>
      (await db().select().from(users).where(eq(users.id, userId)))[0]?.expireAt ?? null,
    paymentsOf: (orderId: string) => db().select().from(payments).where(eq(payments.orderId, orderId)),
    refusals: async (reason: string) =>
      (
        await db()
          .select()
          .from(providerNotices)
          .where(and(eq(providerNotices.kind, 'notify_refused'), eq(providerNotices.provider, provider())))
      ).filter((row) => (row.detail as { reason: string }).reason === reason),
  };
}

/** A gateway's suite: its server and stand-in, and what its tests do with them. */
export type GatewaySuite<S extends GatewayStandIn> = ReturnType<typeof gatewayRecords> & {
  /** The server's log lines, every level. */
  lines: string[];
  t: TestApp;
  web: ReturnType<typeof webCaller>;
  standIn: S;
  gatewayId: string;
  /** The provider name of the gateway's orders and payments. */
  provider(): string;
  notifyPath(): string;
  /** A new buyer's order (or `token`'s) through the suite's gateway. */
  order(options?: { token?: string; payMethod?: PayMethod }): Promise<GatewayOrder>;
  /** A notify delivered to the suite's server. */
  deliver(fields: NotifyFields, options?: { method?: 'GET' | 'POST'; address?: string }): Promise<Reply>;
};
type Reply = Awaited<ReturnType<TestApp['app']['inject']>>;

/**
 * One server for a gateway's suite, its log lines kept, with a gateway added through the back office
 * for a stand-in started for the suite (closed after).
 */
export function useGatewaySuite<S extends GatewayStandIn>(
  env: GatewayEnv,
  gateway: GatewayUnderTest<S>,
): GatewaySuite<S> {
  const lines: string[] = [];
  const t = useTestApp(env, { log: { write: (line: string) => void lines.push(line) } });
  const suite: GatewaySuite<S> = {
    lines,
    t,
    web: webCaller(() => t.app, newClientAddress),
    standIn: undefined as unknown as S,
    gatewayId: '',
    provider: () => `${gateway.kind}:${suite.gatewayId}`,
    notifyPath: () => gateway.notifyPath(suite.gatewayId),
    order: (options = {}) => openGatewayOrder(t, gateway, suite.gatewayId, options),
    deliver: (fields, options = {}) => deliverNotify(t, gateway, suite.notifyPath(), fields, options),
    ...gatewayRecords(
      () => t,
      () => suite.provider(),
    ),
  };
  beforeAll(async () => {
    suite.standIn = await gateway.startStandIn();
    suite.gatewayId = await gateway.addGateway(
      await signedInStaff(t.app, t.database, 'owner'),
      suite.standIn,
    );
  });
  afterAll(() => suite.standIn.close());
  return suite;
}

/**
 * A notify the shared tests send as forged: what it is, why it is refused, and what is answered.
 * `forge` may use the suite's stand-in: it runs inside the test.
 */
export interface Forgery {
  what: string;
  reason: string;
  forge: (order: GatewayOrder) => NotifyFields;
  answer: string;
}

/**
 * The notifies every gateway kind refuses (its own forgeries), each changing nothing and queued once
 * for staff without its signature; a replay of a credited notify answered and not credited again; a
 * notify one fen short waiting for the operator (`short` gives it).
 */
export function itRefusesWhatChangesNothing<S extends GatewayStandIn>(
  suite: GatewaySuite<S>,
  gateway: GatewayUnderTest<S>,
  cases: { forgeries: Forgery[]; short: (order: GatewayOrder) => NotifyFields },
): void {
  const { t } = suite;
  it('a replay of a credited notify: answered, nothing credited again, not queued', async () => {
    const order = await suite.order();
    const fields = suite.standIn.pay(order.order_id);
    expect((await suite.deliver(fields)).body).toBe(gateway.taken);
    const expiry = await suite.expiryOf(order.userId);
    const queued = (await t.database.db.select().from(providerNotices)).length;
    expect((await suite.deliver(fields)).body).toBe(gateway.taken);
    expect(await suite.expiryOf(order.userId)).toEqual(expiry);
    expect(await suite.paymentsOf(order.order_id)).toHaveLength(1);
    expect(await t.database.db.select().from(providerNotices)).toHaveLength(queued);
  });

  for (const forgery of cases.forgeries) {
    it(`a notify ${forgery.what}: refused, and in the attention queue as ${forgery.reason}`, async () => {
      const order = await suite.order();
      const before = await suite.refusals(forgery.reason);
      const fields = forgery.forge(order);
      expect((await suite.deliver(fields)).body).toBe(forgery.answer);
      expect((await suite.orderRow(order.order_id))?.status).toBe('unpaid');
      expect(await suite.expiryOf(order.userId)).toBeNull();
      expect(await suite.paymentsOf(order.order_id)).toEqual([]);
      const after = await suite.refusals(forgery.reason);
      expect(after).toHaveLength(before.length + 1);
      // Kept for staff with its fields, but not its signature.
      const signature = String(fields.sign ?? fields.signature ?? '');
      if (signature) expect(JSON.stringify(after)).not.toContain(signature);
    });
  }

  it('a notify one fen short: no time, the payment waits for the operator', async () => {
    const order = await suite.order();
    expect((await suite.deliver(cases.short(order))).body).toBe(gateway.taken);
    expect((await suite.orderRow(order.order_id))?.status).toBe('unpaid');
    expect(await suite.expiryOf(order.userId)).toBeNull();
    expect(await suite.paymentsOf(order.order_id)).toMatchObject([
      { amount: order.amount - 1, outcome: 'amount_mismatch' },
    ]);
  });
}

/**
 * A paid order whose notify never came is found: by the buyer's inquiry (once the last question to
 * the gateway is a few seconds old), and by the orders job, once however often it runs; the notify
 * arriving after all changes nothing.
 */
export function itFindsLostNotifies<S extends GatewayStandIn>(
  suite: GatewaySuite<S>,
  gateway: GatewayUnderTest<S>,
): void {
  it('finds a payment whose notify was lost when the buyer asks', async () => {
    const order = await suite.order();
    const unpaid = await suite.web('/web/order/query', { order_id: order.order_id }, order.token);
    expect(unpaid.json().data).toMatchObject({ status: 'unpaid' });
    suite.standIn.pay(order.order_id);
    const queried = await later(PROVIDER_ASKED_EVERY_SECONDS, () =>
      suite.web('/web/order/query', { order_id: order.order_id }, order.token),
    );
    expect(queried.json().data).toMatchObject({ order_id: order.order_id, status: 'paid' });
    expect(await suite.paymentsOf(order.order_id)).toMatchObject([
      { amount: order.amount, outcome: 'credited' },
    ]);
  });

  it('finds a payment whose notify was lost in the orders job, once however often it runs', async () => {
    const order = await suite.order();
    const unpaid = await suite.order();
    const notify = suite.standIn.pay(order.order_id);
    expect(await runGatewayOrdersJob(suite.t)).toMatchObject({ paymentsFound: 1, gatewaysUnreachable: 0 });
    expect((await suite.orderRow(order.order_id))?.status).toBe('paid');
    expect((await suite.orderRow(unpaid.order_id))?.status).toBe('unpaid');
    expect(await runGatewayOrdersJob(suite.t)).toMatchObject({ paymentsFound: 0 });
    expect((await suite.deliver(notify)).body).toBe(gateway.taken);
    expect(await suite.paymentsOf(order.order_id)).toHaveLength(1);
  });
}

/**
 * A gateway without a refund call (Epay, USDT): a refund from the back office is refused and changes
 * nothing; staff record it refunded outside, with the time taken back or kept, once, audited.
 */
export function itRecordsRefundsOutside<S extends GatewayStandIn>(
  suite: GatewaySuite<S>,
  gateway: GatewayUnderTest<S>,
): void {
  const { t } = suite;
  async function paidOrder() {
    const order = await suite.order();
    expect((await suite.deliver(suite.standIn.pay(order.order_id))).body).toBe(gateway.taken);
    const [payment] = await suite.paymentsOf(order.order_id);
    if (!payment) throw new Error('no payment');
    return { order, payment, paidUntil: await suite.expiryOf(order.userId) };
  }

  it('refuses a refund from the back office, then records it refunded outside, taking the time back, once', async () => {
    const { order, payment, paidUntil } = await paidOrder();
    const finance = await signedInStaff(t.app, t.database, 'finance');
    const body = { time: 'take_back', reason: 'refunded outside the gateway' };
    const refused = await finance.call('POST', `/payments/${payment.id}/refund`, body);
    expect(refused.json()).toMatchObject({ code: 409, data: { reason: 'refund_unavailable' } });
    expect(await suite.expiryOf(order.userId)).toEqual(paidUntil);

    const recorded = await finance.call('POST', `/payments/${payment.id}/refund-outside`, body);
    expect(recorded.json()).toMatchObject({
      code: 200,
      data: { status: 'succeeded', time_action: 'take_back' },
    });
    expect(recorded.json().data.seconds_taken).toBeGreaterThan(0);
    expect((await suite.expiryOf(order.userId))?.getTime()).toBeLessThan(paidUntil?.getTime() ?? 0);
    expect(await suite.paymentsOf(order.order_id)).toMatchObject([{ settlement: 'refunded' }]);
    const audit = await t.database.db.select().from(auditLog).where(eq(auditLog.targetId, payment.id));
    expect(audit).toMatchObject([{ action: 'payment.refund_outside', staffId: finance.id }]);

    const again = await finance.call('POST', `/payments/${payment.id}/refund-outside`, body);
    expect(again.json()).toMatchObject({ code: 409, data: { reason: 'already_refunded' } });
  });

  it('records a refund outside that keeps the time when the operator says so', async () => {
    const { order, payment, paidUntil } = await paidOrder();
    const finance = await signedInStaff(t.app, t.database, 'finance');
    const reply = await finance.call('POST', `/payments/${payment.id}/refund-outside`, {
      time: 'keep',
      reason: 'refunded outside, time left as a courtesy',
    });
    expect(reply.json()).toMatchObject({ code: 200, data: { status: 'succeeded', seconds_taken: 0 } });
    expect(await suite.expiryOf(order.userId)).toEqual(paidUntil);
  });
}

/**
 * Notifies are limited per address, outside the call ceiling; and the gateway's secret is in no reply,
 * log line or audit row of the whole suite (which this closes: call it last).
 */
export function itGuardsTheNotifyRouteAndTheSecret<S extends GatewayStandIn>(
  suite: GatewaySuite<S>,
  gateway: GatewayUnderTest<S>,
): void {
  it('limits notifies per address, outside the call ceiling', async () => {
    const address = newClientAddress();
    const fields = suite.standIn.pay((await suite.order()).order_id);
    let last = 0;
    for (let i = 0; i <= NOTIFY_PER_MINUTE; i++) last = (await suite.deliver(fields, { address })).statusCode;
    expect(last).toBe(429);
  });

  it('keeps the gateway’s secret out of every reply, log line and audit row', async () => {
    const secret = gateway.secretOf(suite.standIn);
    const audit = await suite.t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.targetId, suite.gatewayId));
    expect(audit).not.toHaveLength(0);
    expect(JSON.stringify(audit)).not.toContain(secret);
    await suite.t.close();
    const all = suite.lines.join('\n');
    expect(all).toContain('notify');
    expect(all).not.toContain(secret);
  });
}

/**
 * The race tests every gateway kind passes on two servers on one PostgreSQL database: 20 copies of
 * one notify arriving at once on both credit once, and a lost notify is credited once when both run
 * the orders job at once.
 */
export function describeOnTwoInstances<S extends GatewayStandIn>(
  name: string,
  env: GatewayEnv,
  gateway: GatewayUnderTest<S>,
): void {
  describe(name, () => {
    const apps = useTwoTestApps(env);
    const two = {} as { standIn: S; first: TestApp; second: TestApp; gatewayId: string };
    beforeAll(async () => {
      Object.assign(two, apps, { standIn: await gateway.startStandIn() });
      const owner = await signedInStaff(two.first.app, two.first.database, 'owner');
      two.gatewayId = await gateway.addGateway(owner, two.standIn);
    });
    afterAll(() => two.standIn.close());
    const db = () => two.first.database.db;

    it('credits once when 20 copies of one notify arrive at once on two servers', async () => {
      const order = await openGatewayOrder(two.first, gateway, two.gatewayId);
      const notify = two.standIn.pay(order.order_id);
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          deliverNotify(i % 2 ? two.second : two.first, gateway, gateway.notifyPath(two.gatewayId), notify),
        ),
      );
      expect(answers.map((reply) => reply.body)).toEqual(Array(20).fill(gateway.taken));
      expect(await db().select().from(payments).where(eq(payments.orderId, order.order_id))).toMatchObject([
        { outcome: 'credited' },
      ]);
      const [account] = await db().select().from(users).where(eq(users.id, order.userId));
      expect(account?.expireAt).not.toBeNull();
    });

    it('credits a lost notify once when both servers run the orders job at once', async () => {
      const order = await openGatewayOrder(two.first, gateway, two.gatewayId);
      two.standIn.pay(order.order_id);
      await Promise.all([two.first, two.second, two.first, two.second].map(runGatewayOrdersJob));
      expect(await db().select().from(payments).where(eq(payments.orderId, order.order_id))).toMatchObject([
        { outcome: 'credited' },
      ]);
      const [row] = await db().select().from(orders).where(eq(orders.id, order.order_id));
      expect(row?.status).toBe('paid');
    });
  });
}
