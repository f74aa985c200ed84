import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq, inArray, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { toUnixSeconds } from '@skyway/shared/dates';
import { NODE_API_VERSION } from '@skyway/shared/schemas/node-api';
import { deviceSlots, orders, trafficHourly, users } from '../../db/schema/index.ts';
import { payingCustomer } from '../../testing/customers.ts';
import { type SignedInStaff, signedInStaff } from '../../testing/staff.ts';
import { newClientAddress, useTestApp, webCaller } from '../../testing/test-app.ts';
import { inAccountTransaction } from '../access/access.ts';
import { holdRevisions, nextRevision } from '../access/revisions.ts';
import { deactivateLapsedSlots, usableSlots } from '../access/slots.ts';
import { mayUseNode } from '../nodes/admission.ts';
import { writeSetting } from '../settings/repository.ts';

const VLESS = {
  protocol: 'vless',
  port: 443,
  transport: 'tcp',
  security: 'tls',
  server_name: 'n.example.com',
};
const TROJAN = { protocol: 'trojan', port: 8443, transport: 'tcp', security: 'tls' };

interface Credentials {
  revision: number;
  full: boolean;
  upsert: { id: string; email: string; uuid: string; password: string; refused: string[] }[];
  remove: string[];
}

describe('node API', () => {
  const t = useTestApp();
  let admin: SignedInStaff;
  const web = webCaller(
    () => t.app,
    () => newClientAddress(),
  );

  beforeAll(async () => {
    admin = await signedInStaff(t.app, t.database, 'admin');
  });

  /** A node with a VLESS and a Trojan inbound and its API token, as the back office makes them. */
  async function node(fields: Record<string, unknown> = {}) {
    const created = await admin.call('POST', '/nodes', {
      name: `Node ${Math.random().toString(36).slice(2, 8)}`,
      region: 'HK',
      host: 'n.example.com',
      ...fields,
    });
    const id = created.json().data.id as string;
    await admin.call('POST', `/nodes/${id}/inbounds`, VLESS);
    await admin.call('POST', `/nodes/${id}/inbounds`, TROJAN);
    const token = (await admin.call('POST', `/nodes/${id}/token`)).json().data.token as string;
    return { id, token };
  }

  const call = (
    token: string | null,
    method: 'GET' | 'POST',
    url: string,
    payload?: object,
    headers: Record<string, string> = {},
  ) =>
    t.app.inject({
      method,
      url,
      ...(payload ? { payload } : {}),
      headers: {
        ...(token === null ? {} : { authorization: `Bearer ${token}` }),
        'x-node-api': NODE_API_VERSION,
        ...headers,
      },
    });

  const credentials = async (token: string, since = 0): Promise<Credentials> => {
    const reply = await call(token, 'GET', `/node/v1/credentials?since=${since}`);
    expect(reply.statusCode, reply.body).toBe(200);
    return reply.json().data as Credentials;
  };

  const customer = (connections = 1) => payingCustomer(t.database, connections);
  const accountOf = async (id: string) => {
    const [account] = await t.database.db.select().from(users).where(eq(users.id, id));
    if (!account) throw new Error(`no account ${id}`);
    return account;
  };

  describe('authentication', () => {
    it('refuses a missing, wrong, rotated or revoked token and a disabled node, and another major version', async () => {
      const { id, token } = await node();
      expect((await call(token, 'GET', '/node/v1/config')).statusCode).toBe(200);

      const missing = await call(null, 'GET', '/node/v1/config');
      expect(missing.statusCode).toBe(401);
      expect(missing.json().data.reason).toBe('node_token_invalid');
      expect((await call('not-a-token', 'GET', '/node/v1/config')).statusCode).toBe(401);

      const rotated = (await admin.call('POST', `/nodes/${id}/token`)).json().data.token as string;
      expect((await call(token, 'GET', '/node/v1/config')).statusCode).toBe(401);
      expect((await call(rotated, 'GET', '/node/v1/config')).statusCode).toBe(200);

      await admin.call('PATCH', `/nodes/${id}`, { enabled: false });
      const disabled = await call(rotated, 'GET', '/node/v1/credentials');
      expect(disabled.statusCode).toBe(403);
      expect(disabled.json().data.reason).toBe('node_disabled');
      await admin.call('PATCH', `/nodes/${id}`, { enabled: true });

      const newer = await call(rotated, 'GET', '/node/v1/config', undefined, { 'x-node-api': '2.0' });
      expect(newer.statusCode).toBe(400);
      expect(newer.json().data.reason).toBe('node_api_version');
      // A newer minor of the same major is served.
      expect(
        (await call(rotated, 'GET', '/node/v1/config', undefined, { 'x-node-api': '1.7' })).statusCode,
      ).toBe(200);

      expect((await admin.call('DELETE', `/nodes/${id}/token`)).statusCode).toBe(200);
      expect((await call(rotated, 'GET', '/node/v1/config')).statusCode).toBe(401);
    });

    it('shows the token once and keeps only its hash; the node list says whether one is issued', async () => {
      const { id, token } = await node();
      const nodes = (await admin.call('GET', '/nodes')).json().data as {
        id: string;
        token_issued: boolean;
      }[];
      expect(nodes.find((row) => row.id === id)?.token_issued).toBe(true);
      expect(JSON.stringify(nodes)).not.toContain(token);
      const stored = await t.database.db.execute(sql`select token_hash from nodes where id = ${id}`);
      expect(JSON.stringify(stored)).not.toContain(token);
    });
  });

  describe('config', () => {
    it('serves the node its own enabled inbounds, with an ETag that answers 304 until they change', async () => {
      const mine = await node();
      const other = await node({ name: 'Other' });
      const first = await call(mine.token, 'GET', '/node/v1/config');
      const config = first.json().data;
      expect(config.node.id).toBe(mine.id);
      expect(config.inbounds.map((inbound: { tag: string }) => inbound.tag).sort()).toEqual([
        'trojan-8443',
        'vless-443',
      ]);
      expect(JSON.stringify(config)).not.toContain(other.id);
      const etag = first.headers.etag as string;
      expect(etag).toMatch(/^"[\w-]+"$/);
      expect(
        (await call(mine.token, 'GET', '/node/v1/config', undefined, { 'if-none-match': etag })).statusCode,
      ).toBe(304);

      const trojan = config.inbounds.find((inbound: { protocol: string }) => inbound.protocol === 'trojan');
      await admin.call('PATCH', `/inbounds/${trojan.id}`, { ...TROJAN, enabled: false });
      const changed = await call(mine.token, 'GET', '/node/v1/config', undefined, { 'if-none-match': etag });
      expect(changed.statusCode).toBe(200);
      expect(changed.json().data.inbounds).toHaveLength(1);
    });
  });

  describe('credentials', () => {
    it('lists every live slot, then only what changed: a new credential, an upgrade, an expiry', async () => {
      const { token } = await node();
      const buyer = await customer(1);
      const lapsed = await customer(1);
      const all = await credentials(token);
      expect(all.full).toBe(true);
      const listed = (slot: { id: string }) => all.upsert.find((entry) => entry.id === slot.id);
      expect(listed(buyer.slots[0] as { id: string })).toEqual({
        id: buyer.slots[0]?.id,
        email: buyer.slots[0]?.id,
        uuid: buyer.slots[0]?.credential,
        password: buyer.slots[0]?.secret,
        refused: [],
        // When the month bought ends: the node drops it then by its own clock.
        expires_at: toUnixSeconds((await accountOf(buyer.user.id)).expireAt),
      });

      // Nothing changed: an empty delta.
      const quiet = await credentials(token, all.revision);
      expect(quiet).toMatchObject({ full: false, upsert: [], remove: [] });

      // A regenerated slot, an upgrade to two connections and an access that ended.
      const devices = (await web('/web/device/list', {}, buyer.token)).json().data.devices as {
        id: string;
      }[];
      await web('/web/device/regenerate', { id: devices[0]?.id }, buyer.token);
      await inAccountTransaction(t.database.db, buyer.user.id, new Date(), (account) =>
        account.purchase({ id: `upgrade-${buyer.user.id}`, days: 31, connections: 2 }),
      );
      await t.database.db
        .update(deviceSlots)
        .set({ revision: nextRevision })
        .where(eq(deviceSlots.userId, lapsed.user.id));
      await inAccountTransaction(t.database.db, lapsed.user.id, new Date(), (account) =>
        account.adjustTime(-40 * 86_400),
      );
      await deactivateLapsedSlots(t.database.db, new Date());

      const delta = await credentials(token, all.revision);
      expect(delta.full).toBe(false);
      expect(delta.revision).toBeGreaterThan(all.revision);
      const [regenerated] = await t.database.db
        .select()
        .from(deviceSlots)
        .where(eq(deviceSlots.id, buyer.slots[0]?.id ?? ''));
      const upserted = new Map(delta.upsert.map((entry) => [entry.id, entry]));
      expect(upserted.get(regenerated?.id ?? '')?.uuid).toBe(regenerated?.credential);
      expect(regenerated?.credential).not.toBe(buyer.slots[0]?.credential);
      expect(delta.upsert.filter((entry) => entry.id !== regenerated?.id).map((entry) => entry.id)).toContain(
        (await customerSlots(buyer.user.id))[1]?.id,
      );
      expect(delta.remove).toContain(lapsed.slots[0]?.id);
      expect(upserted.has(lapsed.slots[0]?.id ?? '')).toBe(false);
    });

    async function customerSlots(userId: string) {
      return t.database.db
        .select()
        .from(deviceSlots)
        .where(eq(deviceSlots.userId, userId))
        .orderBy(deviceSlots.position);
    }

    it('admits to a premium node only accounts with its connections, and a node change sends the whole list', async () => {
      const premium = await node({ min_connections: 3 });
      const small = await customer(2);
      const start = await credentials(premium.token);
      expect(start.upsert.map((entry) => entry.id)).not.toContain(small.slots[0]?.id);

      await inAccountTransaction(t.database.db, small.user.id, new Date(), (account) =>
        account.purchase({ id: `more-${small.user.id}`, days: 31, connections: 3 }),
      );
      const grown = await credentials(premium.token, start.revision);
      expect(grown.full).toBe(false);
      expect(grown.upsert.map((entry) => entry.id)).toEqual(
        expect.arrayContaining((await customerSlots(small.user.id)).map((slot) => slot.id)),
      );

      // The operator opens the node to everyone: its agent gets the whole list again.
      await admin.call('PATCH', `/nodes/${premium.id}`, { min_connections: 1 });
      const opened = await credentials(premium.token, grown.revision);
      expect(opened.full).toBe(true);
    });

    it('admits by the rule of the subscription links, in the full list and in the changes alike', async () => {
      const open = await node();
      const annual = await node({ periods: ['year'], min_connections: 2 });
      const now = Date.now();
      const at = (hours: number) => new Date(now + hours * 3_600_000);
      // Each account bought 3 connections (3 active slots); then its access is set as the case says.
      const cases: { access: Partial<typeof users.$inferInsert>; orders: [string, string, number][] }[] = [
        { access: {}, orders: [['year', 'paid', -2]] },
        { access: { connections: 1 }, orders: [['year', 'paid', -2]] },
        { access: { pendingConnections: 2, pendingFrom: at(-1) }, orders: [['year', 'paid', -2]] },
        { access: { pendingConnections: 1, pendingFrom: at(1) }, orders: [['year', 'paid', -2]] },
        { access: { pendingConnections: 2, pendingFrom: null }, orders: [['year', 'paid', -2]] },
        { access: { revokedAt: at(-1) }, orders: [['year', 'paid', -2]] },
        { access: { expireAt: at(-1) }, orders: [['year', 'paid', -2]] },
        { access: { expireAt: null }, orders: [['year', 'paid', -2]] },
        // The latest paid order decides the plan: not an older paid one, nor a newer unpaid one.
        {
          access: {},
          orders: [
            ['year', 'paid', -48],
            ['month', 'paid', -2],
            ['year', 'unpaid', -1],
          ],
        },
        { access: {}, orders: [] },
      ];
      const slots: {
        slot: typeof deviceSlots.$inferSelect;
        user: typeof users.$inferSelect;
        period: string | null;
      }[] = [];
      for (const { access, orders: bought } of cases) {
        const { user } = await customer(3);
        if (Object.keys(access).length > 0)
          await t.database.db.update(users).set(access).where(eq(users.id, user.id));
        for (const [order, [period, status, hours]] of bought.entries()) {
          await t.database.db.insert(orders).values({
            id: `rule-${user.id}-${order}`,
            userId: user.id,
            period,
            months: 1,
            days: 31,
            connections: 3,
            unitPrice: 2500,
            amount: 2500,
            currency: 'CNY',
            payMethod: 'alipay',
            provider: 'sandbox',
            status,
            createdAt: at(hours),
            latestPayAt: at(hours + 1),
          });
        }
        const [stored] = await t.database.db.select().from(users).where(eq(users.id, user.id));
        const period = [...bought].reverse().find(([, status]) => status === 'paid')?.[0] ?? null;
        for (const slot of await customerSlots(user.id)) {
          if (stored) slots.push({ slot, user: stored, period });
        }
      }
      const before = await credentials(open.token);
      const annualBefore = await credentials(annual.token);
      // Every one of these slots changes, so that the changes list them all.
      await t.database.db
        .update(deviceSlots)
        .set({ revision: nextRevision })
        .where(
          inArray(
            deviceSlots.id,
            slots.map(({ slot }) => slot.id),
          ),
        );

      const rules: [
        { token: string },
        Credentials,
        { periods: string[] | null; minConnections: number },
        number,
      ][] = [
        [open, before, { periods: null, minConnections: 1 }, 3 + 1 + 2 + 3 + 2 + 3 + 3],
        [annual, annualBefore, { periods: ['year'], minConnections: 2 }, 3 + 2 + 3 + 2],
      ];
      const ours = new Set(slots.map(({ slot }) => slot.id));
      for (const [target, full, rule, admitted] of rules) {
        const expected = slots
          .filter(({ slot, user, period }) => {
            const connections = usableSlots(user, new Date());
            return slot.active && slot.position <= connections && mayUseNode(rule, { period, connections });
          })
          .map(({ slot }) => slot.id)
          .sort();
        // The cases do differ: some slots are let in and some kept out.
        expect(expected).toHaveLength(admitted);
        expect(
          full.upsert
            .map((entry) => entry.id)
            .filter((id) => ours.has(id))
            .sort(),
        ).toEqual(expected);
        const delta = await credentials(target.token, full.revision);
        expect(delta.full).toBe(false);
        expect(delta.upsert.map((entry) => entry.id).sort()).toEqual(expected);
        expect(delta.remove.sort()).toEqual([...ours].filter((id) => !expected.includes(id)).sort());
      }
    });

    it('holds back its answer while a change that took an earlier revision is still committing', async () => {
      const { token } = await node();
      const buyer = await customer(1);
      const before = await credentials(token);
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      let taking: () => void = () => undefined;
      const taken = new Promise<void>((resolve) => (taking = resolve));
      const change = t.database.db.transaction(async (tx) => {
        await holdRevisions(tx);
        await tx
          .update(deviceSlots)
          .set({ revision: nextRevision, active: false })
          .where(eq(deviceSlots.userId, buyer.user.id));
        taking();
        await held;
      });
      await taken;
      const answer = credentials(token, before.revision);
      await new Promise((resolve) => setTimeout(resolve, 200));
      release();
      await change;
      const delta = await answer;
      expect(delta.remove).toContain(buyer.slots[0]?.id);
    });
  });

  describe('reports', () => {
    it('applies a report once, at the node’s rate, and the customer sees it on My devices', async () => {
      const { id, token } = await node();
      await admin.call('PATCH', `/nodes/${id}`, { rate_percent: 150 });
      const buyer = await customer(1);
      const slot = buyer.slots[0]?.id as string;
      const now = Math.floor(Date.now() / 1000);
      const report = {
        sequence: 1,
        from: now - 60,
        to: now,
        traffic: [{ id: slot, upload: 1000, download: 20_000 }],
      };

      const first = await call(token, 'POST', '/node/v1/report', report);
      expect(first.json().data).toEqual({ applied: true, sequence: 1 });
      const again = await call(token, 'POST', '/node/v1/report', report);
      expect(again.json().data).toEqual({ applied: false, sequence: 1 });

      const rows = await t.database.db.select().from(trafficHourly).where(eq(trafficHourly.slotId, slot));
      expect(rows.map((row) => [row.upload, row.download])).toEqual([[1500, 30_000]]);
      const devices = (await web('/web/device/list', {}, buyer.token)).json().data.devices as {
        url: string;
        upload: number;
        download: number;
      }[];
      expect(devices[0]).toMatchObject({ upload: 1500, download: 30_000 });
      // The apps read it from their link's headers too.
      const fetched = await t.app.inject({ method: 'GET', url: new URL(devices[0]?.url ?? '').pathname });
      expect(fetched.headers['subscription-userinfo']).toMatch(
        /^upload=1500; download=30000; total=0; expire=\d+$/,
      );
      const section = (await admin.call('GET', `/users/${buyer.user.id}/devices`)).json().data;
      expect(JSON.stringify(section)).toContain('30000');
      // Staff see it per node too.
      const nodes = (await admin.call('GET', '/nodes')).json().data as {
        id: string;
        traffic: { upload: number; download: number };
      }[];
      expect(nodes.find((row) => row.id === id)?.traffic).toEqual({ upload: 1500, download: 30_000 });
    });

    it('applies 20 concurrent deliveries of one report once', async () => {
      const { token } = await node();
      const buyer = await customer(1);
      const slot = buyer.slots[0]?.id as string;
      const now = Math.floor(Date.now() / 1000);
      const report = {
        sequence: 7,
        from: now - 60,
        to: now,
        traffic: [{ id: slot, upload: 10, download: 100 }],
      };
      const replies = await Promise.all(
        Array.from({ length: 20 }, () => call(token, 'POST', '/node/v1/report', report)),
      );
      expect(replies.map((reply) => reply.statusCode)).toEqual(Array.from({ length: 20 }, () => 200));
      expect(replies.filter((reply) => reply.json().data.applied)).toHaveLength(1);
      const rows = await t.database.db.select().from(trafficHourly).where(eq(trafficHourly.slotId, slot));
      expect(rows.map((row) => [row.upload, row.download])).toEqual([[10, 100]]);
    });

    it('refuses a report that is not one, and changes nothing', async () => {
      const { token } = await node();
      for (const bad of [
        {},
        { sequence: 0, from: 1, to: 2, traffic: [] },
        { sequence: 1, from: 5, to: 2, traffic: [] },
        { sequence: 1, from: 1, to: 2, traffic: [{ id: 'x', upload: 1, download: 1 }] },
        { sequence: 1, from: 1, to: 2, traffic: [{ id: crypto.randomUUID(), upload: -1, download: 1 }] },
      ]) {
        const reply = await call(token, 'POST', '/node/v1/report', bad);
        expect(reply.statusCode, JSON.stringify(bad)).toBe(400);
      }
      const fine = await call(token, 'POST', '/node/v1/report', { sequence: 1, from: 1, to: 2, traffic: [] });
      expect(fine.json().data.applied).toBe(true);
    });

    it('keeps the node’s status for the back office', async () => {
      const { id, token } = await node();
      const status = {
        load: [0.5, 0.4, 0.3],
        memory: { total: 1024, used: 512 },
        agent_version: '1.0.0',
        core: 'v2ray 4.34.0',
        uptime: 60,
      };
      expect((await call(token, 'POST', '/node/v1/status', status)).statusCode).toBe(200);
      const nodes = (await admin.call('GET', '/nodes')).json().data as {
        id: string;
        status: unknown;
        last_seen_at: string;
      }[];
      const row = nodes.find((entry) => entry.id === id);
      expect(row?.status).toEqual(status);
      expect(row?.last_seen_at).not.toBeNull();
    });
  });

  describe('a node writes only for the slots it serves', () => {
    interface Refusal {
      kind: string;
      times: number;
      last: Record<string, number>;
    }
    const refusalsOf = async (id: string) =>
      ((await admin.call('GET', '/nodes')).json().data as { id: string; refusals: Refusal[] }[]).find(
        (row) => row.id === id,
      )?.refusals;
    const ledgerOf = async (slot: string) =>
      (await t.database.db.select().from(trafficHourly).where(eq(trafficHourly.slotId, slot))).map((row) => [
        row.upload,
        row.download,
      ]);

    it('drops the bytes of slots the node does not admit, takes the rest, and counts it for staff', async () => {
      // A premium node: customers with two connections or more.
      const premium = await node({ min_connections: 2 });
      const outsider = (await customer(1)).slots[0]?.id as string;
      const member = (await customer(2)).slots[0]?.id as string;
      const now = Math.floor(Date.now() / 1000);
      const report = {
        sequence: 1,
        from: now - 60,
        to: now,
        traffic: [
          { id: member, upload: 10, download: 100 },
          { id: outsider, upload: 5_000, download: 50_000 },
          { id: crypto.randomUUID(), upload: 1, download: 1 },
        ],
      };
      const reply = await call(premium.token, 'POST', '/node/v1/report', report);
      expect(reply.json().data).toEqual({ applied: true, sequence: 1, refused: 2 });
      expect(await ledgerOf(member)).toEqual([[10, 100]]);
      expect(await ledgerOf(outsider)).toEqual([]);
      // Sent again (a lost reply): nothing more, and answered, so that the agent moves on.
      const again = await call(premium.token, 'POST', '/node/v1/report', report);
      expect(again.json().data).toEqual({ applied: false, sequence: 1 });
      expect(await refusalsOf(premium.id)).toMatchObject([
        { kind: 'foreign_traffic', times: 1, last: { slots: 2 } },
      ]);
    });

    it('ignores sightings of slots the node does not admit, so the customer’s device is not refused', async () => {
      await writeSetting(t.database.db, 'device_grace_seconds', '0');
      const honest = await node();
      const rogue = await node({ min_connections: 2 });
      const slot = (await customer(1)).slots[0]?.id as string;
      const rogueOnline = () =>
        call(rogue.token, 'POST', '/node/v1/online', { addresses: [{ id: slot, ips: ['203.0.113.66'] }] });
      expect((await rogueOnline()).statusCode).toBe(200);
      // The same, as a 1.0 agent sends it, with a report.
      const now = Math.floor(Date.now() / 1000);
      await call(rogue.token, 'POST', '/node/v1/report', {
        sequence: 1,
        from: now - 60,
        to: now,
        traffic: [],
        addresses: [{ id: slot, ips: ['203.0.113.67'] }],
      });
      // The customer's own device, afterwards, on a node that serves them.
      await call(honest.token, 'POST', '/node/v1/online', {
        addresses: [{ id: slot, ips: ['198.51.100.7'] }],
      });
      // The rogue node goes on claiming the slot live elsewhere.
      expect((await rogueOnline()).statusCode).toBe(200);
      const served = (await credentials(honest.token)).upsert.find((entry) => entry.id === slot);
      expect(served?.refused).toEqual([]);
      const seen = await t.database.db.execute(
        sql`select address from slot_addresses where slot_id = ${slot}`,
      );
      expect(JSON.stringify(seen)).not.toContain('203.0.113.');
      expect(await refusalsOf(rogue.id)).toMatchObject([{ kind: 'foreign_sightings', times: 3 }]);
      expect(await refusalsOf(honest.id)).toEqual([]);
    });

    it('refuses a report of more bytes than the node’s line could carry, and the totals stay readable', async () => {
      const { id, token } = await node();
      const buyer = await customer(1);
      const slot = buyer.slots[0]?.id as string;
      const now = Math.floor(Date.now() / 1000);
      const huge = (sequence: number, to: number) => ({
        sequence,
        from: to - 60,
        to,
        traffic: [{ id: slot, upload: Number.MAX_SAFE_INTEGER, download: Number.MAX_SAFE_INTEGER }],
      });
      const first = await call(token, 'POST', '/node/v1/report', huge(1, now - 120));
      expect(first.json().data).toEqual({ applied: true, sequence: 1, implausible: true });
      const second = await call(token, 'POST', '/node/v1/report', huge(2, now - 60));
      expect(second.json().data.implausible).toBe(true);
      expect(await ledgerOf(slot)).toEqual([]);
      expect(await refusalsOf(id)).toMatchObject([
        {
          kind: 'implausible_traffic',
          times: 2,
          last: { upload: Number.MAX_SAFE_INTEGER, window_seconds: 62 },
        },
      ]);
      // A minute of a full 10 Gbit/s line is believed.
      const full = 10_000 * 125_000 * 60;
      const fine = await call(token, 'POST', '/node/v1/report', {
        sequence: 3,
        from: now - 60,
        to: now,
        traffic: [{ id: slot, upload: full, download: full }],
      });
      expect(fine.json().data).toEqual({ applied: true, sequence: 3 });
      expect(await ledgerOf(slot)).toEqual([[full, full]]);
    });

    it('judges a report by the node’s own line, set in the back office, audited and validated', async () => {
      const { id, token } = await node();
      const slot = (await customer(1)).slots[0]?.id as string;
      for (const bad of [0, 1_000_001, 1.5, '100']) {
        const reply = await admin.call('PATCH', `/nodes/${id}`, { line_mbps: bad });
        expect(reply.statusCode, String(bad)).toBe(400);
        expect(reply.json().data).toMatchObject({ reason: 'field_invalid', field: 'line_mbps' });
      }
      expect((await admin.call('PATCH', `/nodes/${id}`, { line_mbps: 8 })).json().data.line_mbps).toBe(8);
      const audit = (await admin.call('GET', `/audit?target_id=${id}`)).json().data;
      expect(JSON.stringify(audit)).toContain('"line_mbps":8');
      // 8 Mbit/s is 1 MB a second: a minute's window (and 2 s of slack) carries 62 MB each way.
      const now = Math.floor(Date.now() / 1000);
      const report = (sequence: number, from: number, bytes: number) => ({
        sequence,
        from,
        to: from + 60,
        traffic: [{ id: slot, upload: 0, download: bytes }],
      });
      const over = await call(token, 'POST', '/node/v1/report', report(1, now - 180, 63_000_000));
      expect(over.json().data.implausible).toBe(true);
      const within = await call(token, 'POST', '/node/v1/report', report(2, now - 120, 61_000_000));
      expect(within.json().data).toEqual({ applied: true, sequence: 2 });
      // A window another report covered already is no time at all: only the slack is left.
      const overlapping = await call(token, 'POST', '/node/v1/report', report(3, now - 120, 3_000_000));
      expect(overlapping.json().data.implausible).toBe(true);
      expect(await ledgerOf(slot)).toEqual([[0, 61_000_000]]);
    });

    it('answers every total, however large, where the customer and staff read it', async () => {
      const { id } = await node();
      const other = await node();
      const buyer = await customer(1);
      const slot = buyer.slots[0]?.id as string;
      // What two reports of 2^53 − 1 bytes left in the ledger before they were refused.
      const hour = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000);
      for (const nodeId of [id, other.id]) {
        await t.database.db.insert(trafficHourly).values({
          slotId: slot,
          nodeId,
          hour,
          upload: Number.MAX_SAFE_INTEGER,
          download: Number.MAX_SAFE_INTEGER,
        });
      }
      await t.database.db.insert(trafficHourly).values({
        slotId: slot,
        nodeId: id,
        hour: new Date(hour.getTime() - 3_600_000),
        upload: Number.MAX_SAFE_INTEGER,
        download: 1,
      });
      const list = await web('/web/device/list', {}, buyer.token);
      expect(list.statusCode, list.body).toBe(200);
      const device = (list.json().data.devices as { url: string; upload: number; download: number }[])[0];
      expect(device).toMatchObject({ upload: Number.MAX_SAFE_INTEGER, download: Number.MAX_SAFE_INTEGER });
      const fetched = await t.app.inject({ method: 'GET', url: new URL(device?.url ?? '').pathname });
      expect(fetched.headers['subscription-userinfo']).toMatch(
        /^upload=9007199254740991; download=9007199254740991; total=0; expire=\d+$/,
      );
      const section = await admin.call('GET', `/users/${buyer.user.id}/devices`);
      expect(section.statusCode, section.body).toBe(200);
      const nodes = await admin.call('GET', '/nodes');
      expect(nodes.statusCode, nodes.body).toBe(200);
      expect(
        (nodes.json().data as { id: string; traffic: object }[]).find((row) => row.id === id)?.traffic,
      ).toEqual({ upload: Number.MAX_SAFE_INTEGER, download: Number.MAX_SAFE_INTEGER });
    });
  });

  describe('change stream', () => {
    it('tells a connected node to pull at once, and again within seconds of a change', async () => {
      const { token } = await node();
      const buyer = await customer(1);
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = t.app.server.address() as AddressInfo;
      const events: string[] = [];
      const request = http.get({
        host: '127.0.0.1',
        port,
        path: '/node/v1/events',
        headers: { authorization: `Bearer ${token}`, 'x-node-api': NODE_API_VERSION },
      });
      const response = await new Promise<http.IncomingMessage>((resolve) => request.on('response', resolve));
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/event-stream/);
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => events.push(chunk));
      await expect.poll(() => events.join('')).toContain('event: changed');
      const seen = events.length;

      const devices = (await web('/web/device/list', {}, buyer.token)).json().data.devices as {
        id: string;
      }[];
      const changedAt = Date.now();
      await web('/web/device/regenerate', { id: devices[0]?.id }, buyer.token);
      await expect
        .poll(() => events.slice(seen).join(''), { timeout: 5_000 })
        .toMatch(/event: changed\ndata: \{"revision":\d+\}/);
      expect(Date.now() - changedAt).toBeLessThan(5_000);
      request.destroy();
    });
  });
});
