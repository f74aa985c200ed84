import { NODE_API_VERSION } from '@skyway/shared/schemas/node-api';
import { NODE_ONLINE_WITHIN_SECONDS } from '@skyway/shared/schemas/node-status';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { nodes, orders } from '../../db/schema/index.ts';
import { payingCustomer } from '../../testing/customers.ts';
import { type SignedInStaff, signedInStaff } from '../../testing/staff.ts';
import { later, newClientAddress, signedInUser, useTestApp, webCaller } from '../../testing/test-app.ts';

const VLESS = { protocol: 'vless', port: 443, transport: 'tcp', security: 'none' };

describe('the console’s node status', () => {
  const t = useTestApp();
  const web = webCaller(() => t.app, newClientAddress);
  let admin: SignedInStaff;
  const names = { open: '', premium: '', yearly: '', off: '', bare: '' };
  let openToken = '';

  /** A node made in the back office, with one inbound unless `bare`; its id. */
  async function node(fields: Record<string, unknown>, bare = false) {
    const id = (
      await admin.call('POST', '/nodes', { host: `${Math.random()}.example.com`, ...fields })
    ).json().data.id as string;
    if (!bare) await admin.call('POST', `/nodes/${id}/inbounds`, VLESS);
    return id;
  }

  const nodeCall = (token: string, url: string, payload: object) =>
    t.app.inject({
      method: 'POST',
      url,
      payload,
      headers: { authorization: `Bearer ${token}`, 'x-node-api': NODE_API_VERSION },
    });

  const statusOf = async (token: string) => {
    const reply = await web('/web/node/status', {}, token);
    expect(reply.json().code, reply.body).toBe(200);
    return reply.json().data.nodes as {
      name: string;
      region: string;
      online: boolean;
      load: number | null;
    }[];
  };

  beforeAll(async () => {
    admin = await signedInStaff(t.app, t.database, 'admin');
    const suffix = Math.random().toString(36).slice(2, 8);
    Object.assign(names, {
      open: `Tokyo ${suffix}`,
      premium: `Premium ${suffix}`,
      yearly: `Yearly ${suffix}`,
      off: `Off ${suffix}`,
      bare: `Bare ${suffix}`,
    });
    const open = await node({ name: names.open, region: 'JP', sort_order: 1 });
    await node({ name: names.premium, region: 'SG', min_connections: 3, sort_order: 2 });
    await node({ name: names.yearly, region: 'US', periods: ['year'], sort_order: 3 });
    const off = await node({ name: names.off, region: 'HK' });
    await admin.call('PATCH', `/nodes/${off}`, { enabled: false });
    await node({ name: names.bare, region: 'KR' }, true);
    openToken = (await admin.call('POST', `/nodes/${open}/token`)).json().data.token as string;
  });

  const ours = (list: { name: string }[]) => list.filter((one) => Object.values(names).includes(one.name));

  it('lists the nodes the access may use, with region, whether its agent calls and its load, and no address', async () => {
    const { token } = await payingCustomer(t.database, 1);
    expect(ours(await statusOf(token))).toEqual([
      { name: names.open, region: 'JP', online: false, load: null },
    ]);

    const reported = await nodeCall(openToken, '/node/v1/status', {
      load: [0.4567, 0.3, 0.2],
      memory: { total: 1_000_000, used: 500_000 },
      agent_version: '1.0.0',
      core: 'v2ray 4.34',
      uptime: 60,
    });
    expect(reported.statusCode, reported.body).toBe(200);
    const list = await statusOf(token);
    expect(ours(list)).toEqual([{ name: names.open, region: 'JP', online: true, load: 0.46 }]);
    expect(JSON.stringify(list)).not.toMatch(/example\.com|443|vless/i);

    // An agent not heard from for a while is offline; its last load is still shown.
    const silent = await later(NODE_ONLINE_WITHIN_SECONDS + 1, () => statusOf(token));
    expect(ours(silent)).toEqual([{ name: names.open, region: 'JP', online: false, load: 0.46 }]);
  });

  it('adds the nodes for more connections, and those of the plan of the latest paid order', async () => {
    const { user, token } = await payingCustomer(t.database, 3);
    expect(ours(await statusOf(token)).map((one) => one.name)).toEqual([names.open, names.premium]);
    await t.database.db.insert(orders).values({
      id: `order-year-${user.id}`,
      userId: user.id,
      period: 'year',
      months: 12,
      days: 365,
      connections: 3,
      unitPrice: 100,
      amount: 300,
      currency: 'CNY',
      payMethod: 'card',
      provider: 'sandbox',
      status: 'paid',
      latestPayAt: new Date(),
      paidAt: new Date(),
    });
    expect(ours(await statusOf(token)).map((one) => one.name)).toEqual([
      names.open,
      names.premium,
      names.yearly,
    ]);
  });

  it('lists none for an account without access, and answers only the signed in', async () => {
    const { token } = await signedInUser(t.database);
    expect(await statusOf(token)).toEqual([]);
    expect((await web('/web/node/status', {})).json().code).toBe(401);
    const [off] = await t.database.db.select().from(nodes).where(eq(nodes.name, names.off));
    expect(off?.enabled).toBe(false);
  });
});
