import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { nodeReports, trafficHourly } from '../../db/schema/index.ts';
import { payingCustomer } from '../../testing/customers.ts';
import { type SignedInStaff, signedInStaff } from '../../testing/staff.ts';
import { newClientAddress, useTestApp, webCaller } from '../../testing/test-app.ts';
import { addressOf } from './alive.ts';

// The replies as the node programs decode them. Go's decoder takes a missing field (or null) as the
// zero value and ignores fields it does not name, but refuses a value of another type: a number
// where it reads a string, an object where it reads a number. So each field a program names is
// optional here, of exactly its Go type, and the tests below check the values that matter.
const goInt = z.number().int().optional();
const goString = z.string().nullable().optional();
/** `json.RawMessage` that the program unmarshals into the core's transport settings. */
const goRawObject = z.record(z.string(), z.unknown());

/** V2bX `api/panel/node.go` (InazumaV/V2bX, wyx2685/V2bX): `CommonNode`. */
const v2bxCommon = z.object({
  host: goString,
  server_port: goInt,
  server_name: goString,
  routes: z
    .array(
      z.object({
        id: goInt,
        match: z.union([z.string(), z.array(z.string())]),
        action: goString,
        action_value: goString,
      }),
    )
    .nullable()
    .optional(),
  // Read as `any` and turned into seconds; a missing base_config makes V2bX dereference nil.
  base_config: z.object({
    push_interval: z.union([z.number(), z.string()]),
    pull_interval: z.union([z.number(), z.string()]),
  }),
});
/** V2bX `VAllssNode` (vless, vmess). */
const v2bxVAllss = v2bxCommon.extend({
  tls: goInt,
  tls_settings: z
    .object({
      server_name: goString,
      dest: goString,
      server_port: goString,
      short_id: goString,
      private_key: goString,
      // `json:"xver,string"`: a number in a string.
      xver: z.string().optional(),
    })
    .nullable()
    .optional(),
  network: goString,
  // V2bX prefers `networkSettings` to `network_settings`; one of them must be a non-empty JSON value,
  // or it builds no stream settings and fails on them.
  networkSettings: goRawObject.optional(),
  network_settings: goRawObject.optional(),
  flow: goString,
});
/** V2bX `TrojanNode` (wyx2685): `networkSettings` is unmarshalled as it is, so it must be JSON. */
const v2bxTrojan = v2bxCommon.extend({ network: goString, networkSettings: goRawObject });

/** XrayR `api/newV2board/model.go`: `serverConfig` (the fields of every node type in one struct). */
const xrayrConfig = z.object({
  server_port: z.number().int().positive(),
  host: goString,
  server_name: goString,
  network: goString,
  networkSettings: z
    .object({
      path: goString,
      host: goString,
      headers: z.unknown().optional(),
      serviceName: goString,
      header: z.unknown().optional(),
    })
    .optional(),
  flow: goString,
  tls: goInt,
  tls_settings: z
    .object({
      server_port: goString,
      dest: goString,
      // `uint64`: a number (V2bX reads a string: the reply leaves it out).
      xver: z.number().int().nonnegative().optional(),
      server_name: goString,
      private_key: goString,
      short_id: goString,
    })
    .optional(),
  cipher: goString,
  server_key: goString,
  base_config: z.object({ push_interval: z.number().int(), pull_interval: z.number().int() }),
  routes: z.array(z.object({ match: z.array(z.string()).optional() })).optional(),
});

/** V2bX `UserListBody` / `UserInfo` (api/panel/user.go), XrayR `user`: the ids are integers. */
const usersReply = z.object({
  users: z.array(
    z.object({
      id: z.number().int().nonnegative(),
      uuid: z.string(),
      speed_limit: z.number().int(),
      device_limit: z.number().int(),
    }),
  ),
});
/** V2bX `AliveMap`: `map[int]int`. */
const aliveListReply = z.object({ alive: z.record(z.string().regex(/^\d+$/), z.number().int()) });

type Users = z.infer<typeof usersReply>['users'];

const VLESS = {
  protocol: 'vless',
  port: 443,
  transport: 'tcp',
  security: 'tls',
  server_name: 'v.example.com',
  flow: 'xtls-rprx-vision',
};
const VMESS = { protocol: 'vmess', port: 8080, transport: 'ws', path: '/ws', security: 'tls' };
const TROJAN = { protocol: 'trojan', port: 8443, transport: 'grpc', path: 'grpc-svc', security: 'tls' };
const REALITY = {
  protocol: 'vless',
  port: 4443,
  transport: 'tcp',
  security: 'reality',
  server_name: 'www.example.com',
  reality_public_key: 'x'.repeat(43),
  reality_short_id: 'ab12',
};
const SHADOWSOCKS = {
  protocol: 'shadowsocks',
  port: 9000,
  transport: 'tcp',
  security: 'none',
  method: '2022-blake3-aes-128-gcm',
};

describe('UniProxy compatibility', () => {
  const t = useTestApp();
  let admin: SignedInStaff;
  const web = webCaller(
    () => t.app,
    () => newClientAddress(),
  );

  beforeAll(async () => {
    admin = await signedInStaff(t.app, t.database, 'admin');
  });

  interface Node {
    id: string;
    number: number;
    token: string;
  }

  /** A node with these inbounds and its API token, as the back office makes them. */
  async function node(inbounds: object[] = [VLESS, VMESS, TROJAN], fields: object = {}): Promise<Node> {
    const created = await admin.call('POST', '/nodes', {
      name: `Node ${Math.random().toString(36).slice(2, 8)}`,
      region: 'HK',
      host: 'n.example.com',
      ...fields,
    });
    expect(created.statusCode, created.body).toBe(200);
    const { id, number } = created.json().data as { id: string; number: number };
    for (const inbound of inbounds) {
      const added = await admin.call('POST', `/nodes/${id}/inbounds`, inbound);
      expect(added.statusCode, added.body).toBe(200);
    }
    const token = (await admin.call('POST', `/nodes/${id}/token`)).json().data.token as string;
    return { id, number, token };
  }

  /** A UniProxy call as V2bX makes it: the node, its type and its token in the query. */
  const call = (
    target: { number: number | string; token: string },
    method: 'GET' | 'POST',
    path: string,
    options: { type?: string; payload?: object; headers?: Record<string, string> } = {},
  ) =>
    t.app.inject({
      method,
      url: `/api/v1/server/UniProxy/${path}`,
      query: {
        node_id: String(target.number),
        node_type: options.type ?? 'vless',
        token: target.token,
      },
      ...(options.payload ? { payload: options.payload } : {}),
      headers: options.headers ?? {},
    });

  const users = async (target: Node, type = 'vless'): Promise<Users> => {
    const reply = await call(target, 'GET', 'user', { type });
    expect(reply.statusCode, reply.body).toBe(200);
    return usersReply.parse(reply.json()).users;
  };

  const customer = (connections = 1) => payingCustomer(t.database, connections);

  describe('authentication', () => {
    it('takes the node’s own token with its number or id, and refuses any other', async () => {
      const mine = await node();
      const other = await node();
      expect((await call(mine, 'GET', 'config')).statusCode).toBe(200);
      expect((await call({ number: mine.id, token: mine.token }, 'GET', 'config')).statusCode).toBe(200);

      for (const [name, target] of [
        ['wrong token', { number: mine.number, token: 'not-a-token' }],
        ['no token', { number: mine.number, token: '' }],
        ['another node’s token', { number: mine.number, token: other.token }],
        ['another node’s number', { number: other.number, token: mine.token }],
        ['no such node', { number: 0, token: mine.token }],
      ] as const) {
        for (const [method, path] of [
          ['GET', 'config'],
          ['GET', 'user'],
          ['POST', 'push'],
          ['POST', 'alive'],
          ['GET', 'alivelist'],
          ['POST', 'status'],
        ] as const) {
          const reply = await call(target, method, path, method === 'POST' ? { payload: {} } : {});
          expect(reply.statusCode, `${name}: ${path}`).toBe(401);
          expect(reply.json().data.reason).toBe('node_token_invalid');
        }
      }

      // Rotated: the old token is refused at once; revoked: every token.
      const rotated = (await admin.call('POST', `/nodes/${mine.id}/token`)).json().data.token as string;
      expect((await call(mine, 'GET', 'user')).statusCode).toBe(401);
      expect((await call({ ...mine, token: rotated }, 'GET', 'user')).statusCode).toBe(200);

      await admin.call('PATCH', `/nodes/${mine.id}`, { enabled: false });
      const disabled = await call({ ...mine, token: rotated }, 'GET', 'config');
      expect(disabled.statusCode).toBe(403);
      expect(disabled.json().data.reason).toBe('node_disabled');
      await admin.call('PATCH', `/nodes/${mine.id}`, { enabled: true });

      await admin.call('DELETE', `/nodes/${mine.id}/token`);
      expect((await call({ ...mine, token: rotated }, 'GET', 'config')).statusCode).toBe(401);
    });

    it('shows each node’s stable integer in the back office', async () => {
      const first = await node([]);
      const second = await node([]);
      const listed = (await admin.call('GET', '/nodes')).json().data as { id: string; number: number }[];
      expect(listed.find((row) => row.id === first.id)?.number).toBe(first.number);
      expect(Number.isInteger(first.number)).toBe(true);
      expect(second.number).toBeGreaterThan(first.number);
    });
  });

  describe('config', () => {
    it('answers each node type in the shape V2bX and XrayR parse', async () => {
      const target = await node();

      const vless = (await call(target, 'GET', 'config', { type: 'vless' })).json();
      v2bxVAllss.parse(vless);
      xrayrConfig.parse(vless);
      expect(vless).toMatchObject({
        server_port: 443,
        network: 'tcp',
        networkSettings: {},
        tls: 1,
        tls_settings: { server_name: 'v.example.com' },
        server_name: 'v.example.com',
        host: 'n.example.com',
        flow: 'xtls-rprx-vision',
        routes: [],
        base_config: { push_interval: 60, pull_interval: 60 },
      });

      // XrayR asks for VMess as `v2ray`.
      for (const type of ['vmess', 'v2ray', 'VMess']) {
        const vmess = (await call(target, 'GET', 'config', { type })).json();
        v2bxVAllss.parse(vmess);
        xrayrConfig.parse(vmess);
        expect(vmess).toMatchObject({
          server_port: 8080,
          network: 'ws',
          networkSettings: { path: '/ws' },
          tls: 1,
          tls_settings: { server_name: 'n.example.com' },
        });
        expect(vmess).not.toHaveProperty('flow');
      }

      const trojan = (await call(target, 'GET', 'config', { type: 'trojan' })).json();
      v2bxTrojan.parse(trojan);
      xrayrConfig.parse(trojan);
      expect(trojan).toMatchObject({
        server_port: 8443,
        network: 'grpc',
        networkSettings: { serviceName: 'grpc-svc' },
        host: 'n.example.com',
        server_name: 'n.example.com',
      });
    });

    it('answers 304 to the ETag it gave until the inbound changes', async () => {
      const target = await node();
      const first = await call(target, 'GET', 'config');
      const etag = first.headers.etag as string;
      expect(etag).toMatch(/^"[\w-]+"$/);
      const again = await call(target, 'GET', 'config', { headers: { 'if-none-match': etag } });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
      // The other node types have their own.
      expect((await call(target, 'GET', 'config', { type: 'trojan' })).headers.etag).not.toBe(etag);

      const { inbounds } = (await admin.call('GET', '/nodes'))
        .json()
        .data.find((row: { id: string }) => row.id === target.id) as {
        inbounds: { id: string; protocol: string }[];
      };
      const vless = inbounds.find((inbound) => inbound.protocol === 'vless');
      await admin.call('PATCH', `/inbounds/${vless?.id}`, { ...VLESS, port: 2053 });
      const changed = await call(target, 'GET', 'config', { headers: { 'if-none-match': etag } });
      expect(changed.statusCode).toBe(200);
      expect(changed.json().server_port).toBe(2053);
    });

    it('serves the first inbound of the type in the operator’s order, and refuses what it cannot serve', async () => {
      const target = await node([
        { ...VLESS, port: 1001, sort_order: 2 },
        { ...VLESS, port: 1002, sort_order: 1 },
      ]);
      expect((await call(target, 'GET', 'config')).json().server_port).toBe(1002);

      const none = await call(target, 'GET', 'config', { type: 'trojan' });
      expect(none.statusCode).toBe(404);
      expect(none.json().data).toMatchObject({ reason: 'not_found', field: 'node_type' });
      for (const type of ['hysteria2', '']) {
        const refused = await call(target, 'GET', 'config', { type });
        expect(refused.statusCode, type).toBe(400);
        expect(refused.json().data.field).toBe('node_type');
      }

      // REALITY's private key stays on the node; Shadowsocks 2022 user keys cannot be the programs'.
      const unsupported = await node([REALITY, SHADOWSOCKS]);
      for (const type of ['vless', 'shadowsocks']) {
        for (const path of ['config', 'user']) {
          const refused = await call(unsupported, 'GET', path, { type });
          expect(refused.statusCode, `${type} ${path}`).toBe(400);
          expect(refused.json().data.reason).toBe('uniproxy_unsupported');
        }
      }
    });
  });

  describe('user', () => {
    it('lists the admitted slots by their integer, with the credential the node type uses', async () => {
      const target = await node();
      const buyer = await customer(2);
      const [first, second] = buyer.slots;
      const vless = await users(target, 'vless');
      const listed = vless.filter((user) => buyer.slots.some((slot) => slot.number === user.id));
      expect(listed).toEqual([
        { id: first?.number, uuid: first?.credential, speed_limit: 0, device_limit: 0 },
        { id: second?.number, uuid: second?.credential, speed_limit: 0, device_limit: 0 },
      ]);
      // In id order, so that the reply changes only when the list does.
      expect(vless.map((user) => user.id)).toEqual([...vless.map((user) => user.id)].sort((a, b) => a - b));
      // Trojan takes the slot's password in the same field.
      const trojan = await users(target, 'trojan');
      expect(trojan.find((user) => user.id === first?.number)?.uuid).toBe(first?.secret);
      expect(new Set(vless.map((user) => user.id)).size).toBe(vless.length);
    });

    it('answers 304 to its ETag, and a new list once a customer is revoked', async () => {
      const target = await node();
      const buyer = await customer(1);
      const slot = buyer.slots[0];
      const first = await call(target, 'GET', 'user');
      const etag = first.headers.etag as string;
      expect(usersReply.parse(first.json()).users.map((user) => user.id)).toContain(slot?.number);
      const same = await call(target, 'GET', 'user', { headers: { 'if-none-match': etag } });
      expect(same.statusCode).toBe(304);

      const disabled = await admin.call('PATCH', `/users/${buyer.user.id}`, {
        disabled: true,
        reason: 'fraud',
      });
      expect(disabled.statusCode, disabled.body).toBe(200);
      const after = await call(target, 'GET', 'user', { headers: { 'if-none-match': etag } });
      expect(after.statusCode).toBe(200);
      expect(after.headers.etag).not.toBe(etag);
      expect(usersReply.parse(after.json()).users.map((user) => user.id)).not.toContain(slot?.number);
    });

    it('never answers an empty list, which the programs would ignore, keeping the last users', async () => {
      // A premium node no customer qualifies for.
      const target = await node([VLESS], { min_connections: 1000 });
      const only = await users(target);
      expect(only).toHaveLength(1);
      expect(only[0]).toMatchObject({ id: 0, speed_limit: 0, device_limit: 0 });
      expect(only[0]?.uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      // Stable while the token is; another with a new one.
      expect((await users(target))[0]?.uuid).toBe(only[0]?.uuid);
      const rotated = (await admin.call('POST', `/nodes/${target.id}/token`)).json().data.token as string;
      expect((await users({ ...target, token: rotated }))[0]?.uuid).not.toBe(only[0]?.uuid);
    });
  });

  describe('push', () => {
    it('puts each user’s bytes in the ledger at the node’s rate; a resent push counts again', async () => {
      const target = await node();
      await admin.call('PATCH', `/nodes/${target.id}`, { rate_percent: 200 });
      const buyer = await customer(1);
      const slot = buyer.slots[0];
      const body = { [String(slot?.number)]: [1000, 20_000], 999999999: [5, 5], 0: [1, 1], x: [1, 1] };

      const pushed = await call(target, 'POST', 'push', { payload: body });
      expect(pushed.statusCode, pushed.body).toBe(200);
      expect(pushed.json()).toMatchObject({ data: true });
      const ledger = () =>
        t.database.db
          .select()
          .from(trafficHourly)
          .where(and(eq(trafficHourly.slotId, slot?.id ?? ''), eq(trafficHourly.nodeId, target.id)));
      expect((await ledger()).map((row) => [row.upload, row.download])).toEqual([[2000, 40_000]]);
      const devices = (await web('/web/device/list', {}, buyer.token)).json().data.devices as {
        upload: number;
        download: number;
      }[];
      expect(devices[0]).toMatchObject({ upload: 2000, download: 40_000 });

      // No sequence of the program's own: the same push again is more traffic, as in Xboard.
      await call(target, 'POST', 'push', { payload: body });
      expect((await ledger()).map((row) => [row.upload, row.download])).toEqual([[4000, 80_000]]);
      const reports = await t.database.db.select().from(nodeReports).where(eq(nodeReports.nodeId, target.id));
      expect(reports).toHaveLength(2);
      expect(reports.every((report) => report.sequence < 0)).toBe(true);
      expect(reports.map((report) => report.credentials)).toEqual([1, 1]);
    });

    it('charges no one the node does not serve, nor more than its line could carry', async () => {
      // A premium node: customers with two connections or more.
      const target = await node([VLESS], { min_connections: 2 });
      const outsider = (await customer(1)).slots[0];
      const member = (await customer(2)).slots[0];
      const ledger = (slotId: string) =>
        t.database.db
          .select()
          .from(trafficHourly)
          .where(and(eq(trafficHourly.slotId, slotId), eq(trafficHourly.nodeId, target.id)));
      // Slot numbers are sequential: a rogue program pushes for its neighbours' too.
      const pushed = await call(target, 'POST', 'push', {
        payload: { [String(member?.number)]: [10, 100], [String(outsider?.number)]: [7_000, 70_000] },
      });
      expect(pushed.statusCode, pushed.body).toBe(200);
      expect((await ledger(member?.id ?? '')).map((row) => [row.upload, row.download])).toEqual([[10, 100]]);
      expect(await ledger(outsider?.id ?? '')).toEqual([]);
      const huge = await call(target, 'POST', 'push', {
        payload: { [String(member?.number)]: [Number.MAX_SAFE_INTEGER, 1] },
      });
      expect(huge.statusCode, huge.body).toBe(200);
      expect((await ledger(member?.id ?? '')).map((row) => [row.upload, row.download])).toEqual([[10, 100]]);
      const listed = (await admin.call('GET', '/nodes')).json().data as {
        id: string;
        refusals: { kind: string; times: number }[];
      }[];
      expect(listed.find((row) => row.id === target.id)?.refusals).toMatchObject([
        { kind: 'foreign_traffic', times: 1 },
        { kind: 'implausible_traffic', times: 1 },
      ]);
    });

    it('refuses a body that is not an object, and records nothing for an empty one', async () => {
      const target = await node();
      for (const payload of [[1, 2], 'text']) {
        const reply = await t.app.inject({
          method: 'POST',
          url: '/api/v1/server/UniProxy/push',
          query: { node_id: String(target.number), node_type: 'vless', token: target.token },
          payload: JSON.stringify(payload),
          headers: { 'content-type': 'application/json' },
        });
        expect(reply.statusCode, JSON.stringify(payload)).toBe(400);
      }
      expect((await call(target, 'POST', 'push', { payload: {} })).statusCode).toBe(200);
      const reports = await t.database.db.select().from(nodeReports).where(eq(nodeReports.nodeId, target.id));
      expect(reports).toHaveLength(0);
    });
  });

  describe('alive', () => {
    it('counts each user’s distinct live addresses across nodes for alivelist', async () => {
      const first = await node();
      const second = await node();
      const buyer = await customer(2);
      const [one, two] = buyer.slots.map((slot) => String(slot.number));
      const posted = await call(first, 'POST', 'alive', {
        payload: { [one as string]: ['1.2.3.4', `5.6.7.8_${first.number}`], [two as string]: ['9.9.9.9'] },
      });
      expect(posted.statusCode, posted.body).toBe(200);
      expect(posted.json()).toEqual({ data: true });
      // XrayR's `address_NODEID` and an address with a port are the same address.
      await call(second, 'POST', 'alive', {
        payload: { [one as string]: [`1.2.3.4_${second.number}`, '[::1]:443'] },
      });

      const list = await call(second, 'GET', 'alivelist');
      expect(list.statusCode).toBe(200);
      const { alive } = aliveListReply.parse(list.json());
      expect(alive[one as string]).toBe(3);
      expect(alive[two as string]).toBe(1);

      // A node's report replaces what it said before of the users it names.
      await call(first, 'POST', 'alive', { payload: { [two as string]: [] } });
      const after = aliveListReply.parse((await call(first, 'GET', 'alivelist')).json()).alive;
      expect(after[two as string]).toBeUndefined();
      expect(after[one as string]).toBe(3);
    });

    it('reads the addresses as the programs send them', () => {
      expect(addressOf('1.2.3.4')).toBe('1.2.3.4');
      expect(addressOf('1.2.3.4_12')).toBe('1.2.3.4');
      expect(addressOf('1.2.3.4:5678')).toBe('1.2.3.4');
      expect(addressOf('[2001:db8::1]:443')).toBe('2001:db8::1');
      expect(addressOf('2001:db8::1')).toBe('2001:db8::1');
    });
  });
});
