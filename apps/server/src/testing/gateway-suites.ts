import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { orders, payments, providerNotices, users } from '../db/schema/index.ts';
import { runGatewayOrdersJob } from './gateways.ts';
import { type SignedInStaff, signedInStaff } from './staff.ts';
import {
  newClientAddress,
  signedInUser,
  startTestApp,
  type TestApp,
  useTestApp,
  webCaller,
} from './test-app.ts';
import { openTwoInstances } from './test-database.ts';

/**
 * One server for a gateway's suite, its log lines kept, with a gateway added through the back office
 * for a stand-in started for the suite; the stand-in closed after.
 */
export function useGatewaySuite<S extends { close(): Promise<void> }>(
  env: Record<string, string>,
  startStandIn: () => Promise<S>,
  addGateway: (owner: SignedInStaff, standIn: S) => Promise<string>,
) {
  const lines: string[] = [];
  const t = useTestApp(env, { log: { write: (line: string) => void lines.push(line) } });
  const suite = { lines, t, web: webCaller(() => t.app, newClientAddress) } as {
    lines: string[];
    t: TestApp;
    web: ReturnType<typeof webCaller>;
    standIn: S;
    gatewayId: string;
  };
  beforeAll(async () => {
    suite.standIn = await startStandIn();
    suite.gatewayId = await addGateway(await signedInStaff(t.app, t.database, 'owner'), suite.standIn);
  });
  afterAll(() => suite.standIn.close());
  return suite;
}

/**
 * Two servers on one PostgreSQL database, with a gateway added through the first for a stand-in
 * started for the suite; all of it closed after.
 */
export function useGatewayOnTwoInstances<S extends { close(): Promise<void> }>(
  env: Record<string, string>,
  startStandIn: () => Promise<S>,
  addGateway: (owner: SignedInStaff, standIn: S) => Promise<string>,
) {
  const suite = {} as { standIn: S; first: TestApp; second: TestApp; gatewayId: string };
  let two: Awaited<ReturnType<typeof openTwoInstances>>;
  beforeAll(async () => {
    suite.standIn = await startStandIn();
    two = await openTwoInstances();
    suite.first = await startTestApp(env, undefined, two.first);
    suite.second = await startTestApp(env, undefined, two.second);
    const owner = await signedInStaff(suite.first.app, suite.first.database, 'owner');
    suite.gatewayId = await addGateway(owner, suite.standIn);
  });
  afterAll(async () => {
    await suite.first.app.close();
    await suite.second.app.close();
    await two.close();
    await suite.standIn.close();
  });
  return suite;
}

/**
 * The race tests every gateway kind passes on two servers (useGatewayOnTwoInstances): 20 copies of
 * one notify arriving at once on both credit once, and a lost notify is credited once when both run
 * the orders job at once.
 */
export function itCreditsOnceOnTwoInstances<S>(
  two: { standIn: S; first: TestApp; second: TestApp; gatewayId: string },
  kind: {
    payMethod: string;
    notifyUrl: (gatewayId: string) => string;
    /** The notify the stand-in sends for an order it has marked paid. */
    paidNotify: (standIn: S, orderId: string) => { form: Record<string, string> } | { json: object };
    /** What the gateway is answered for a notify taken. */
    taken: string;
    /** Whether the buyer's browser must open the checkout for the stand-in to know the order. */
    opensCheckout?: boolean;
  },
): void {
  async function openOrder() {
    const { user, token } = await signedInUser(two.first.database);
    const created = await webCaller(() => two.first.app, newClientAddress)(
      '/web/order/create',
      { period: 'month', connections: 2, pay_method: kind.payMethod, gateway_id: two.gatewayId },
      token,
    );
    const order = created.json().data as { order_id: string; checkout_url: string };
    if (kind.opensCheckout) await fetch(order.checkout_url);
    return { orderId: order.order_id, userId: user.id };
  }
  const db = () => two.first.database.db;

  it('credits once when 20 copies of one notify arrive at once on two servers', async () => {
    const { orderId, userId } = await openOrder();
    const notify = kind.paidNotify(two.standIn, orderId);
    const answers = await postNotifyConcurrently(
      [two.first, two.second],
      kind.notifyUrl(two.gatewayId),
      notify,
    );
    expect(answers).toEqual(Array(20).fill(kind.taken));
    expect(await db().select().from(payments).where(eq(payments.orderId, orderId))).toMatchObject([
      { outcome: 'credited' },
    ]);
    const [account] = await db().select().from(users).where(eq(users.id, userId));
    expect(account?.expireAt).not.toBeNull();
  });

  it('credits a lost notify once when both servers run the orders job at once', async () => {
    const { orderId } = await openOrder();
    kind.paidNotify(two.standIn, orderId);
    await Promise.all([two.first, two.second, two.first, two.second].map(runGatewayOrdersJob));
    expect(await db().select().from(payments).where(eq(payments.orderId, orderId))).toMatchObject([
      { outcome: 'credited' },
    ]);
    const [order] = await db().select().from(orders).where(eq(orders.id, orderId));
    expect(order?.status).toBe('paid');
  });
}

/**
 * The same notify posted `copies` times at once, alternately to each server: a form (Epay, Alipay)
 * or a JSON body (USDT). The bodies answered.
 */
async function postNotifyConcurrently(
  servers: TestApp[],
  url: string,
  notify: { form: Record<string, string> } | { json: object },
  copies = 20,
): Promise<string[]> {
  const request =
    'form' in notify
      ? {
          payload: new URLSearchParams(notify.form).toString(),
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        }
      : { payload: notify.json };
  const replies = await Promise.all(
    Array.from({ length: copies }, (_, i) =>
      (servers[i % servers.length] as TestApp).app.inject({
        method: 'POST',
        url,
        ...request,
        remoteAddress: newClientAddress(),
      }),
    ),
  );
  return replies.map((reply) => reply.body);
}

/**
 * What a gateway's tests read back: an order's row, its buyer's expiry, an order's payments, and the
 * gateway's notifies refused for a reason.
 */
export function gatewayRecords(app: () => TestApp, provider: () => string) {
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
