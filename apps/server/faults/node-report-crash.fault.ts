import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NODE_API_VERSION } from '@skyway/shared/schemas/node-api';
import { hashToken } from '../src/lib/token-hash.ts';
import { seedAccounts } from './harness/accounts.ts';
import { dataOf, describeExchange, type Exchange, send, type Target } from './harness/http.ts';
import type { Instance } from './harness/instances.ts';
import { type FaultStack, startFaultStack } from './harness/stack.ts';

/**
 * A node's report is applied exactly once even when the server dies while it handles it: the
 * instance is killed (SIGKILL) at a range of moments after a report of 10,000 credentials was sent,
 * before, during and after its transaction; a new instance is started and the node sends the same
 * report again (what the agent's outbox does until it has an answer). Each round's bytes are then in
 * the ledger once: never lost, never twice.
 */

const CREDENTIALS = 10_000;
/**
 * When to kill: this long after the request was sent (before the transaction, inside it, after the
 * reply), or `committed`: the moment the report's row is seen committed, before its reply is out.
 */
const KILL_AT: (number | 'committed')[] = [0, 15, 40, 80, 150, 'committed', 300];
const BYTES = { upload: 1_000, download: 7_000 };

let stack: FaultStack;
let instance: Instance;
let slotIds: string[];
const token = randomBytes(32).toString('base64url');

beforeAll(async () => {
  stack = await startFaultStack();
  const [account] = await seedAccounts(stack.database, 1, 'node-report');
  if (!account) throw new Error('no account');
  await stack.database.query(
    `update users set expire_at = now() + interval '31 days', connections = $2 where id = $1`,
    [account.id, CREDENTIALS],
  );
  const slots = await stack.database.query<{ id: string }>(
    `insert into device_slots (user_id, position, credential, secret, active)
     select $1, n, gen_random_uuid(), md5(n::text), true from generate_series(1, $2) as n
     returning id`,
    [account.id, CREDENTIALS],
  );
  slotIds = slots.map((slot) => slot.id);
  await stack.database.query(
    `insert into nodes (name, region, host, token_hash) values ('Crash test', 'HK', 'n.example.com', $1)`,
    [hashToken(token)],
  );
  [instance] = (await stack.startInstances(['a'])) as [Instance];
}, 120_000);
afterAll(() => stack?.cleanup());

const postReport = (target: Target, body: string): Promise<Exchange> =>
  send(target, {
    method: 'POST',
    path: '/node/v1/report',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${token}`,
      'x-node-api': NODE_API_VERSION,
    },
    body,
    timeoutMs: 15_000,
  });

/** The bytes the ledger holds over every slot. */
async function ledger(): Promise<{ upload: number; download: number }> {
  const [row] = await stack.database.query<{ upload: string; download: string }>(
    'select coalesce(sum(upload), 0) as upload, coalesce(sum(download), 0) as download from traffic_hourly',
  );
  return { upload: Number(row?.upload), download: Number(row?.download) };
}

/** Resolves as soon as the report's row (written in its transaction) is visible: it has committed. */
async function committed(sequence: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const rows = await stack.database.query('select 1 from node_reports where sequence = $1', [sequence]);
    if (rows.length > 0) return;
  }
  throw new Error(`report ${sequence} never committed`);
}

describe('a node report while the server is killed', () => {
  it('is in the ledger exactly once, wherever the kill falls', async () => {
    const outcomes: string[] = [];
    for (const [round, moment] of KILL_AT.entries()) {
      const sequence = 1_000 + round;
      const before = await ledger();
      const now = Math.floor(Date.now() / 1000);
      const body = JSON.stringify({
        sequence,
        from: now - 60,
        to: now,
        traffic: slotIds.map((id) => ({ id, ...BYTES })),
      });
      const first = postReport(instance, body);
      if (moment === 'committed') await committed(sequence);
      else await new Promise((resolve) => setTimeout(resolve, moment));
      await instance.stop('SIGKILL');
      const cut = await first;
      [instance] = (await stack.startInstances(['a'])) as [Instance];
      // The node sends it again until it has an answer.
      const again = await postReport(instance, body);
      expect(again.status, describeExchange(again)).toBe(200);
      const applied = dataOf(again).applied as boolean;
      outcomes.push(
        `${moment === 'committed' ? 'at commit' : `${moment} ms`}: first ${cut.status ?? cut.error}, again ${applied ? 'applied' : 'already applied'}`,
      );

      const after = await ledger();
      expect(after.upload - before.upload, outcomes.join('; ')).toBe(CREDENTIALS * BYTES.upload);
      expect(after.download - before.download, outcomes.join('; ')).toBe(CREDENTIALS * BYTES.download);
      // Sent once more after the answer: still once.
      expect(dataOf(await postReport(instance, body)).applied).toBe(false);
      expect(await ledger()).toEqual(after);
    }
    console.info(`node report killed mid-way: ${outcomes.join('; ')}`);
  }, 300_000);
});
