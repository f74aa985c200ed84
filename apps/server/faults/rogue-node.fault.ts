import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NODE_API_VERSION } from '@skyway/shared/schemas/node-api';
import { hashToken } from '../src/lib/token-hash.ts';
import { seedAccounts } from './harness/accounts.ts';
import { dataOf, describeExchange, type Exchange, send, type Target } from './harness/http.ts';
import type { Instance } from './harness/instances.ts';
import { type FaultStack, startFaultStack } from './harness/stack.ts';

/**
 * A rogue node: its token was taken and it is driven to charge and lock out customers it does not
 * serve, on both instances at once. It is a premium node (customers with two connections or more);
 * the victims have one. It reports their slots' traffic, pushes bytes for every slot number through
 * UniProxy (they are sequential), says their slots are live from its own address, and claims an
 * impossible byte count for a customer it does serve. Nothing of it reaches the ledger or the
 * one-device rule, each kind is one row for staff however often it came, and an honest node goes on
 * as before.
 */

const VICTIMS = 20;
const ROUNDS = 10;

let stack: FaultStack;
let instances: Instance[];
let victimSlots: string[];
let highestNumber: number;
let memberSlot: string;
let rogueNode: { id: string; number: number };
const rogueToken = randomBytes(32).toString('base64url');
const honestToken = randomBytes(32).toString('base64url');

/** A node with a VLESS inbound and its token. */
async function addNode(name: string, token: string, minConnections: number) {
  const [row] = await stack.database.query<{ id: string; number: number }>(
    `insert into nodes (name, region, host, token_hash, min_connections)
     values ($1, 'HK', 'n.example.com', $2, $3) returning id, number`,
    [name, hashToken(token), minConnections],
  );
  if (!row) throw new Error('no node');
  await stack.database.query(
    `insert into inbounds (node_id, protocol, port, transport, security) values ($1, 'vless', 443, 'tcp', 'tls')`,
    [row.id],
  );
  return row;
}

beforeAll(async () => {
  stack = await startFaultStack();
  const accounts = await seedAccounts(stack.database, VICTIMS + 1, 'rogue-node');
  await stack.database.query(
    `update users set expire_at = now() + interval '31 days', connections = 1 where id = any($1::uuid[])`,
    [accounts.map((account) => account.id)],
  );
  const member = accounts[VICTIMS]?.id;
  await stack.database.query(`update users set connections = 2 where id = $1`, [member]);
  const slots = await stack.database.query<{ id: string; number: string; user_id: string }>(
    `insert into device_slots (user_id, position, credential, secret, active)
     select id, 1, gen_random_uuid(), md5(id::text), true from users where id = any($1::uuid[])
     returning id, number, user_id`,
    [accounts.map((account) => account.id)],
  );
  victimSlots = slots.filter((slot) => slot.user_id !== member).map((slot) => slot.id);
  highestNumber = Math.max(...slots.map((slot) => Number(slot.number)));
  memberSlot = slots.find((slot) => slot.user_id === member)?.id ?? '';
  rogueNode = await addNode('Rogue', rogueToken, 2);
  await addNode('Honest', honestToken, 1);
  await stack.database.query(`insert into settings (key, value) values ('device_grace_seconds', '0')
    on conflict (key) do update set value = excluded.value`);
  instances = await stack.startInstances(['a', 'b']);
}, 180_000);
afterAll(() => stack?.cleanup());

const nodeCall = (target: Target, token: string, path: string, payload: unknown): Promise<Exchange> =>
  send(target, {
    method: 'POST',
    path: `/node/v1/${path}`,
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${token}`,
      'x-node-api': NODE_API_VERSION,
    },
    body: JSON.stringify(payload),
    timeoutMs: 15_000,
  });

const push = (target: Target, payload: unknown): Promise<Exchange> =>
  send(target, {
    method: 'POST',
    path: `/api/v1/server/UniProxy/push?node_id=${rogueNode.number}&node_type=vless&token=${rogueToken}`,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(payload),
    timeoutMs: 15_000,
  });

async function ledgerOf(slotIds: string[]): Promise<number> {
  const [row] = await stack.database.query<{ bytes: string }>(
    'select coalesce(sum(upload + download), 0) as bytes from traffic_hourly where slot_id = any($1::uuid[])',
    [slotIds],
  );
  return Number(row?.bytes);
}

describe('a rogue node', () => {
  it('charges and locks out no one it does not serve, and fills no table', async () => {
    const victims = victimSlots;
    let sequence = 1;
    for (let round = 0; round < ROUNDS; round += 1) {
      const target = instances[round % instances.length] as Instance;
      const now = Math.floor(Date.now() / 1000);
      const exchanges = await Promise.all([
        nodeCall(target, rogueToken, 'report', {
          sequence: sequence++,
          from: now - 60,
          to: now,
          traffic: victims.map((id) => ({ id, upload: 1_000_000, download: 9_000_000 })),
        }),
        // Every slot number up to the highest, as a program enumerating them would.
        push(
          target,
          Object.fromEntries(
            Array.from({ length: highestNumber }, (_, index) => [String(index + 1), [5_000, 50_000]]),
          ),
        ),
        nodeCall(target, rogueToken, 'online', {
          addresses: victims.map((id) => ({ id, ips: ['203.0.113.99'] })),
        }),
        nodeCall(target, rogueToken, 'report', {
          sequence: sequence++,
          from: now - 60,
          to: now,
          traffic: [{ id: memberSlot, upload: Number.MAX_SAFE_INTEGER, download: Number.MAX_SAFE_INTEGER }],
        }),
      ]);
      for (const exchange of exchanges) expect(exchange.status, describeExchange(exchange)).toBe(200);
      expect(dataOf(exchanges[3] as Exchange).implausible).toBe(true);
      // The customers' own devices, on the node that serves them.
      const honest = await nodeCall(target, honestToken, 'online', {
        addresses: victims.map((id, index) => ({ id, ips: [`198.51.100.${index + 1}`] })),
      });
      expect(honest.status, describeExchange(honest)).toBe(200);
    }

    expect(await ledgerOf(victims)).toBe(0);
    // The one customer it serves: what it pushed for them, and not the impossible count.
    expect(await ledgerOf([memberSlot])).toBe(ROUNDS * 55_000);
    const refused = await stack.database.query<{ n: string }>(
      `select count(*) as n from device_slots where id = any($1::uuid[]) and cardinality(refused_addresses) > 0`,
      [victims],
    );
    expect(Number(refused[0]?.n)).toBe(0);
    const rogueSightings = await stack.database.query(
      `select 1 from slot_addresses where address = '203.0.113.99'`,
    );
    expect(rogueSightings).toHaveLength(0);
    const refusals = await stack.database.query<{ kind: string; times: string }>(
      'select kind, times from node_refusals where node_id = $1 order by kind',
      [rogueNode.id],
    );
    expect(refusals.map((row) => [row.kind, Number(row.times)])).toEqual([
      ['foreign_sightings', ROUNDS],
      ['foreign_traffic', ROUNDS * 2],
      ['implausible_traffic', ROUNDS],
    ]);
    const others = await stack.database.query('select 1 from node_refusals where node_id <> $1', [
      rogueNode.id,
    ]);
    expect(others).toHaveLength(0);
  }, 300_000);
});
