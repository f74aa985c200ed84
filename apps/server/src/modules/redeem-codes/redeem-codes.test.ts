import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { toUnixSeconds } from '@skyway/shared/dates';
import { applyPurchase, DAY_SECONDS, PERIODS } from '@skyway/shared/plans';
import {
  normalizeRedeemCode,
  REDEEM_CODE_ALPHABET,
  REDEEM_TRIES_PER_ADDRESS_HOUR,
  REDEEM_WRONG_TRIES_PER_HOUR,
} from '@skyway/shared/redeem-codes';
import { SUBSCRIBE_TYPES } from '@skyway/shared/user';
import { auditLog, expiryLedger, orders, redeemCodes, users } from '../../db/schema/index.ts';
import type { DatabaseHandle } from '../../db/client.ts';
import { type SignedInStaff, signedInStaff } from '../../testing/staff.ts';
import {
  newClientAddress,
  signedInUser,
  useTestApp,
  useTwoTestApps,
  webCaller,
} from '../../testing/test-app.ts';
import { testDatabaseKind } from '../../testing/test-database.ts';
import { hashRedeemCode, newRedeemCodes } from './codes.ts';

type Grant =
  | { kind: 'plan'; period: 'month' | 'half_year' | 'year'; connections: number }
  | { kind: 'days'; days: number };

/** Creates a batch as a member, and answers its id and its codes as the CSV gave them. */
async function createBatch(member: SignedInStaff, count: number, grant: Grant, name = 'batch') {
  const reply = await member.call('POST', '/redeem-batches', { name, note: 'for a card shop', count, grant });
  if (reply.statusCode !== 200) throw new Error(`batch: ${reply.body}`);
  const data = reply.json().data as { batch: { id: string }; csv: string };
  const [header, ...codes] = data.csv.trimEnd().split('\r\n');
  expect(header).toBe('code');
  return { id: data.batch.id, codes, csv: data.csv };
}

const customer = async (database: DatabaseHandle, access?: { days: number; connections: number }) => {
  const signed = await signedInUser(database);
  if (access) {
    await database.db
      .update(users)
      .set({
        expireAt: new Date(Date.now() + access.days * DAY_SECONDS * 1000),
        connections: access.connections,
      })
      .where(eq(users.id, signed.user.id));
  }
  return signed;
};

const accessOf = async (database: DatabaseHandle, userId: string) => {
  const [row] = await database.db.select().from(users).where(eq(users.id, userId));
  if (!row) throw new Error('no user');
  return row;
};

describe('redeem codes', () => {
  const lines: string[] = [];
  const t = useTestApp({}, { log: { write: (line: string) => void lines.push(line) } });
  let address = newClientAddress();
  const web = webCaller(
    () => t.app,
    () => address,
  );
  const redeem = (code: string, token: string) => web('/web/redeem', { code }, token);
  let owner: SignedInStaff;
  const shown: string[] = [];

  beforeAll(async () => {
    owner = await signedInStaff(t.app, t.database, 'owner');
  });

  it('makes codes of 20 characters of the unambiguous alphabet, read whatever the case, spaces or dashes', () => {
    const codes = newRedeemCodes(2000);
    expect(new Set(codes).size).toBe(2000);
    for (const code of codes) expect(code).toMatch(new RegExp(`^[${REDEEM_CODE_ALPHABET}]{20}$`));
    expect(REDEEM_CODE_ALPHABET).not.toMatch(/[01OIL]/);
    const code = codes[0] as string;
    const typed = ` ${code.slice(0, 4).toLowerCase()} - ${code.slice(4, 12)}—${code.slice(12)} `;
    expect(normalizeRedeemCode(typed)).toBe(code);
    expect(hashRedeemCode(typed)).toBe(hashRedeemCode(code));
    // Each character about equally often: uniform, not biased towards the alphabet's start.
    const counts = new Map<string, number>();
    for (const c of codes.join('')) counts.set(c, (counts.get(c) ?? 0) + 1);
    const expected = (2000 * 20) / REDEEM_CODE_ALPHABET.length;
    for (const n of counts.values()) expect(Math.abs(n - expected)).toBeLessThan(expected * 0.2);
  });

  it('gives a plan code what a purchase would, with its ledger row and a paid order of 0 in my orders', async () => {
    const batch = await createBatch(owner, 3, { kind: 'plan', period: 'month', connections: 2 });
    shown.push(...batch.codes);
    const { user, token } = await customer(t.database);
    const before = Date.now();
    const reply = await redeem((batch.codes[0] as string).toLowerCase(), token);
    expect(reply.statusCode).toBe(200);
    const data = reply.json().data as { order_id: string; expire_user: number };
    const after = await accessOf(t.database, user.id);
    expect(after.connections).toBe(2);
    expect(toUnixSeconds(after.expireAt)).toBe(data.expire_user);
    expect(data.expire_user - Math.floor(before / 1000)).toBeGreaterThanOrEqual(31 * DAY_SECONDS - 2);
    expect(data.expire_user - Math.floor(before / 1000)).toBeLessThanOrEqual(31 * DAY_SECONDS + 2);
    expect(after.subscribeType).toBe(SUBSCRIBE_TYPES.card);

    const ledger = await t.database.db.select().from(expiryLedger).where(eq(expiryLedger.userId, user.id));
    expect(ledger).toMatchObject([{ reason: 'redeem_code', ref: data.order_id, connections: 2 }]);
    const list = await web('/web/order/list', { page: 1, size: 10 }, token);
    expect(list.json().data.list).toMatchObject([
      {
        order_id: data.order_id,
        period: 'month',
        months: 1,
        days: 31,
        connections: 2,
        amount: 0,
        pay_method: 'redeem_code',
        status: 'paid',
      },
    ]);
    const [code] = await t.database.db
      .select()
      .from(redeemCodes)
      .where(eq(redeemCodes.codeHash, hashRedeemCode(batch.codes[0] as string)));
    expect(code).toMatchObject({ redeemedBy: user.id, orderId: data.order_id });
  });

  it('applies the upgrade and downgrade rules of a purchase', async () => {
    const batch = await createBatch(owner, 2, { kind: 'plan', period: 'year', connections: 1 });
    shown.push(...batch.codes);
    const up = await createBatch(owner, 1, { kind: 'plan', period: 'month', connections: 4 });
    shown.push(...up.codes);
    for (const [code, grant] of [
      [batch.codes[0], { days: PERIODS.year.days, connections: 1 }],
      [up.codes[0], { days: PERIODS.month.days, connections: 4 }],
    ] as const) {
      const { user, token } = await customer(t.database, { days: 10, connections: 2 });
      const before = await accessOf(t.database, user.id);
      const reply = await redeem(code as string, token);
      expect(reply.statusCode).toBe(200);
      const now = Math.floor(Date.parse(reply.headers.date as string) / 1000);
      const expected = applyPurchase(
        {
          expireAt: toUnixSeconds(before.expireAt),
          connections: 2,
          pendingConnections: null,
          pendingFrom: 0,
        },
        grant,
        now,
      );
      const after = await accessOf(t.database, user.id);
      expect(after.connections).toBe(expected.after.connections);
      expect(after.pendingConnections).toBe(expected.after.pendingConnections);
      expect(Math.abs(toUnixSeconds(after.expireAt) - expected.after.expireAt)).toBeLessThanOrEqual(2);
    }
  });

  it('gives a days code its days at the account’s connections', async () => {
    const batch = await createBatch(owner, 1, { kind: 'days', days: 7 });
    shown.push(...batch.codes);
    const { user, token } = await customer(t.database, { days: 5, connections: 3 });
    const before = await accessOf(t.database, user.id);
    const reply = await redeem(batch.codes[0] as string, token);
    expect(reply.statusCode).toBe(200);
    const after = await accessOf(t.database, user.id);
    expect(after.connections).toBe(3);
    expect(toUnixSeconds(after.expireAt) - toUnixSeconds(before.expireAt)).toBe(7 * DAY_SECONDS);
    const list = await web('/web/order/list', { page: 1, size: 10 }, token);
    expect(list.json().data.list).toMatchObject([
      { period: 'days', months: 0, days: 7, connections: 3, amount: 0, pay_method: 'redeem_code' },
    ]);
  });

  it('refuses used, revoked and unknown codes with one reply, in about the same time', async () => {
    const batch = await createBatch(owner, 30, { kind: 'days', days: 1 });
    const revokedBatch = await createBatch(owner, 30, { kind: 'days', days: 1 });
    shown.push(...batch.codes, ...revokedBatch.codes);
    const first = await customer(t.database);
    expect((await redeem(batch.codes[0] as string, first.token)).statusCode).toBe(200);
    expect((await owner.call('POST', '/redeem-codes/revoke', { code: batch.codes[1] })).statusCode).toBe(200);
    expect((await owner.call('POST', `/redeem-batches/${revokedBatch.id}/revoke`, {})).statusCode).toBe(200);
    const unknown = newRedeemCodes(1)[0] as string;

    const { token } = await customer(t.database);
    const replies = [];
    for (const code of [batch.codes[0], batch.codes[1], revokedBatch.codes[0], unknown, 'not a code']) {
      address = newClientAddress();
      const reply = await redeem(code as string, token);
      replies.push({ status: reply.statusCode, body: reply.body });
    }
    expect(replies[0]).toEqual({
      status: 400,
      body: JSON.stringify({
        code: 400,
        msg: 'This code is not valid or has already been used',
        data: { reason: 'redeem_code_invalid', field: 'code' },
      }),
    });
    for (const reply of replies) expect(reply).toEqual(replies[0]);

    // The same work either way (one lookup by the hash): the medians of revoked and unknown codes
    // are close. Alternated, from accounts of their own, so that neither the lock nor a warm cache
    // favours one.
    const median = (times: number[]) => times.sort((a, b) => a - b)[Math.floor(times.length / 2)] as number;
    const revokedTimes: number[] = [];
    const unknownTimes: number[] = [];
    for (let n = 2; n < 18; n++) {
      for (const [code, times] of [
        [revokedBatch.codes[n] as string, revokedTimes],
        [newRedeemCodes(1)[0] as string, unknownTimes],
      ] as const) {
        const tryer = await customer(t.database);
        address = newClientAddress();
        const start = performance.now();
        const reply = await redeem(code, tryer.token);
        times.push(performance.now() - start);
        expect(reply.statusCode).toBe(400);
      }
    }
    const [a, b] = [median(revokedTimes), median(unknownTimes)];
    expect(Math.abs(a - b)).toBeLessThan(Math.max(5, 0.5 * Math.max(a, b)));
  });

  it(`locks an account's redemption after ${REDEEM_WRONG_TRIES_PER_HOUR} wrong tries in an hour`, async () => {
    const batch = await createBatch(owner, 1, { kind: 'days', days: 1 });
    shown.push(...batch.codes);
    const { token } = await customer(t.database);
    for (let n = 0; n < REDEEM_WRONG_TRIES_PER_HOUR; n++) {
      address = newClientAddress();
      expect((await redeem(newRedeemCodes(1)[0] as string, token)).json().data.reason).toBe(
        'redeem_code_invalid',
      );
    }
    address = newClientAddress();
    const locked = await web('/web/redeem', { code: batch.codes[0] }, token);
    expect(locked.statusCode).toBe(429);
    expect(locked.json().data.reason).toBe('redeem_locked');
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(3500);
    const zh = await t.app.inject({
      method: 'POST',
      url: '/web/redeem',
      payload: { code: batch.codes[0] },
      headers: { authorization: token, 'accept-language': 'zh-CN' },
      remoteAddress: newClientAddress(),
    });
    expect(zh.json().msg).toMatch(/^错误的兑换码过多/);
    // The locked try spent nothing: the code is still good for another account.
    const other = await customer(t.database);
    expect((await redeem(batch.codes[0] as string, other.token)).statusCode).toBe(200);
  });

  it('counts a successful redemption as the end of a run of wrong tries', async () => {
    const batch = await createBatch(owner, 2, { kind: 'days', days: 1 });
    shown.push(...batch.codes);
    const { token } = await customer(t.database);
    for (let n = 0; n < REDEEM_WRONG_TRIES_PER_HOUR - 1; n++) {
      address = newClientAddress();
      await redeem(newRedeemCodes(1)[0] as string, token);
    }
    expect((await redeem(batch.codes[0] as string, token)).statusCode).toBe(200);
    address = newClientAddress();
    await redeem(newRedeemCodes(1)[0] as string, token);
    expect((await redeem(batch.codes[1] as string, token)).statusCode).toBe(200);
  });

  it(`limits an address to ${REDEEM_TRIES_PER_ADDRESS_HOUR} tries an hour, whatever the accounts`, async () => {
    address = newClientAddress();
    const accounts = await Promise.all(Array.from({ length: 4 }, () => customer(t.database)));
    for (let n = 0; n < REDEEM_TRIES_PER_ADDRESS_HOUR; n++) {
      const reply = await redeem(
        newRedeemCodes(1)[0] as string,
        (accounts[n % 4] as { token: string }).token,
      );
      expect(reply.statusCode).toBe(400);
    }
    const refused = await redeem(newRedeemCodes(1)[0] as string, (accounts[0] as { token: string }).token);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().data.reason).toBe('too_many_requests');
  });

  it('redeems a code once under 20 concurrent tries from 20 accounts', async () => {
    const batch = await createBatch(owner, 1, { kind: 'plan', period: 'month', connections: 1 });
    shown.push(...batch.codes);
    const accounts = await Promise.all(Array.from({ length: 20 }, () => customer(t.database)));
    const replies = await Promise.all(
      accounts.map((account) =>
        t.app.inject({
          method: 'POST',
          url: '/web/redeem',
          payload: { code: batch.codes[0] },
          headers: { authorization: account.token },
          remoteAddress: newClientAddress(),
        }),
      ),
    );
    expect(replies.filter((reply) => reply.statusCode === 200)).toHaveLength(1);
    expect(replies.filter((reply) => reply.json().data.reason === 'redeem_code_invalid')).toHaveLength(19);
    const made = await t.database.db.select().from(orders).where(eq(orders.payMethod, 'redeem_code'));
    const winner = replies.find((reply) => reply.statusCode === 200)?.json().data.order_id;
    expect(made.filter((order) => order.id === winner)).toHaveLength(1);
  });

  it('lists batches with their uses, filtered and sorted, and a batch’s redemptions', async () => {
    const batch = await createBatch(owner, 5, { kind: 'days', days: 3 }, 'Taobao shop November');
    shown.push(...batch.codes);
    const buyer = await customer(t.database);
    address = newClientAddress();
    await redeem(batch.codes[0] as string, buyer.token);
    await redeem(batch.codes[1] as string, buyer.token);
    await owner.call('POST', '/redeem-codes/revoke', { code: batch.codes[2] });

    const found = await owner.call('GET', '/redeem-batches?q=taobao&state=active');
    expect(found.json().data).toMatchObject({
      total: 1,
      items: [
        {
          id: batch.id,
          name: 'Taobao shop November',
          count: 5,
          redeemed: 2,
          revoked: 1,
          grant: { kind: 'days', days: 3 },
        },
      ],
    });
    const byUses = (await owner.call('GET', '/redeem-batches?sort=redeemed&order=desc&size=100')).json().data;
    const uses = byUses.items.map((item: { redeemed: number }) => item.redeemed);
    expect(uses).toEqual([...uses].sort((x: number, y: number) => y - x));
    expect(
      (await owner.call('GET', '/redeem-batches?state=revoked')).json().data.items.length,
    ).toBeGreaterThan(0);

    const redemptions = (await owner.call('GET', `/redeem-batches/${batch.id}/redemptions`)).json().data;
    expect(redemptions.total).toBe(2);
    expect(redemptions.items[0]).toMatchObject({ user_id: buyer.user.id, email: buyer.user.email });
    expect(Date.parse(redemptions.items[0].redeemed_at)).toBeGreaterThan(Date.now() - 60_000);

    const revoked = await owner.call('POST', `/redeem-batches/${batch.id}/revoke`, {});
    expect(revoked.json().data).toMatchObject({ redeemed: 2, revoked: 3 });
    expect(revoked.json().data.revoked_at).not.toBeNull();
    expect((await owner.call('POST', `/redeem-batches/${batch.id}/revoke`, {})).json().data.reason).toBe(
      'redeem_already_revoked',
    );
  });

  it('tells staff revoking a code whether it is unknown, used or revoked already', async () => {
    const batch = await createBatch(owner, 2, { kind: 'days', days: 1 });
    shown.push(...batch.codes);
    const buyer = await customer(t.database);
    address = newClientAddress();
    await redeem(batch.codes[0] as string, buyer.token);
    const used = await owner.call('POST', '/redeem-codes/revoke', { code: batch.codes[0] });
    expect([used.statusCode, used.json().data.reason]).toEqual([409, 'redeem_code_used']);
    const ok = await owner.call('POST', '/redeem-codes/revoke', {
      code: (batch.codes[1] as string).toLowerCase(),
    });
    expect(ok.json().data).toEqual({ batch_id: batch.id });
    const again = await owner.call('POST', '/redeem-codes/revoke', { code: batch.codes[1] });
    expect([again.statusCode, again.json().data.reason]).toEqual([409, 'redeem_already_revoked']);
    const unknown = await owner.call('POST', '/redeem-codes/revoke', { code: newRedeemCodes(1)[0] });
    expect(unknown.statusCode).toBe(404);
  });

  it('lets owners, admins and finance manage codes, and no other role', async () => {
    for (const role of ['support', 'viewer'] as const) {
      const member = await signedInStaff(t.app, t.database, role);
      const create = await member.call('POST', '/redeem-batches', {
        name: 'x',
        count: 1,
        grant: { kind: 'days', days: 1 },
      });
      expect([create.statusCode, create.json().data.reason]).toEqual([403, 'permission_denied']);
      expect((await member.call('GET', '/redeem-batches')).statusCode).toBe(403);
    }
    for (const role of ['admin', 'finance'] as const) {
      const member = await signedInStaff(t.app, t.database, role);
      const batch = await createBatch(member, 1, { kind: 'days', days: 1 });
      shown.push(...batch.codes);
    }
  });

  it('refuses a batch of more than 100,000 codes or of none', async () => {
    for (const count of [0, 100_001]) {
      const reply = await owner.call('POST', '/redeem-batches', {
        name: 'x',
        count,
        grant: { kind: 'days', days: 1 },
      });
      expect(reply.statusCode).toBe(400);
    }
  });

  it('audits every change, and keeps the codes in clear nowhere: not in the database, the audit log, later replies or the log', async () => {
    expect(shown.length).toBeGreaterThan(50);
    const rows = await t.database.db.select().from(auditLog);
    const actions = new Set(rows.map((row) => row.action));
    for (const action of ['redeem.create_batch', 'redeem.revoke_batch', 'redeem.revoke_code']) {
      expect(actions).toContain(action);
    }
    const stored = JSON.stringify([rows, await t.database.db.select().from(redeemCodes)]);
    const later = (await owner.call('GET', '/redeem-batches?size=100')).body;
    await t.close();
    const log = lines.join('');
    for (const code of shown) {
      const bare = normalizeRedeemCode(code);
      for (const text of [stored, later, log]) {
        expect(text).not.toContain(bare);
        expect(text).not.toContain(code);
      }
    }
  });
});

describe.runIf(testDatabaseKind === 'postgres')('redeem codes on two instances', () => {
  const two = useTwoTestApps();

  it('redeems a code once under 20 concurrent tries through two instances', async () => {
    const owner = await signedInStaff(two.first.app, two.first.database, 'owner');
    const batch = await createBatch(owner, 1, { kind: 'days', days: 30 });
    const accounts = await Promise.all(Array.from({ length: 20 }, () => customer(two.first.database)));
    const replies = await Promise.all(
      accounts.map((account, n) =>
        (n % 2 ? two.second : two.first).app.inject({
          method: 'POST',
          url: '/web/redeem',
          payload: { code: batch.codes[0] },
          headers: { authorization: account.token },
          remoteAddress: newClientAddress(),
        }),
      ),
    );
    expect(replies.map((reply) => reply.statusCode).sort()).toEqual([200, ...Array(19).fill(400)]);
    const ledger = await two.first.database.db
      .select()
      .from(expiryLedger)
      .where(eq(expiryLedger.reason, 'redeem_code'));
    expect(ledger).toHaveLength(1);
    const made = await two.first.database.db.select().from(orders).where(eq(orders.payMethod, 'redeem_code'));
    expect(made).toHaveLength(1);
  });
});
