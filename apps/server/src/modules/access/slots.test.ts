import { asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { deviceSlots, users } from '../../db/schema/index.ts';
import { runOrdersJob } from '../orders/orders-job.ts';
import { signedInStaff } from '../../testing/staff.ts';
import { signedInUser, useTestApp } from '../../testing/test-app.ts';
import { createSandboxProvider } from '../payments/sandbox.ts';
import { inAccountTransaction } from './access.ts';
import { fulfilDeps } from '../../testing/payments.ts';

const DAY_MS = 86_400_000;

describe('device slots follow the access', () => {
  const t = useTestApp();

  const slotsOf = (userId: string) =>
    t.database.db
      .select()
      .from(deviceSlots)
      .where(eq(deviceSlots.userId, userId))
      .orderBy(asc(deviceSlots.position));
  const activeOf = async (userId: string) =>
    (await slotsOf(userId)).map((slot) => [slot.position, slot.active]);
  const buy = (userId: string, connections: number, now = new Date()) =>
    inAccountTransaction(t.database.db, userId, now, (account) =>
      account.purchase({ id: `order-${Math.random()}`, days: 31, connections }),
    );
  const ordersJob = (now: Date) =>
    runOrdersJob({ ...fulfilDeps(t), provider: createSandboxProvider(), log: t.app.log }, now);

  it('gives each paid connection a slot of its own, and an upgrade more slots at once', async () => {
    const { user } = await signedInUser(t.database);
    expect(await slotsOf(user.id)).toEqual([]);
    await buy(user.id, 2);
    const two = await slotsOf(user.id);
    expect(two.map((slot) => [slot.position, slot.active])).toEqual([
      [1, true],
      [2, true],
    ]);
    expect(new Set(two.map((slot) => slot.credential)).size).toBe(2);
    expect(two.every((slot) => Buffer.from(slot.secret, 'base64').length === 32)).toBe(true);
    await buy(user.id, 3);
    const three = await slotsOf(user.id);
    expect(three.map((slot) => [slot.position, slot.active])).toEqual([
      [1, true],
      [2, true],
      [3, true],
    ]);
    // The first two kept their credentials; all three took revisions after them (the nodes the
    // account may use follow its connections), the new one last.
    const kept = ({ revision: _, ...slot }: (typeof two)[number]) => slot;
    expect(three.slice(0, 2).map(kept)).toEqual(two.map(kept));
    const before = Math.max(...two.map((slot) => slot.revision));
    expect(three.every((slot) => slot.revision > before)).toBe(true);
    expect(three[2]?.revision).toBeGreaterThan(Math.max(three[0]?.revision ?? 0, three[1]?.revision ?? 0));
  });

  it('keeps the extra slots of a downgrade until it comes due, then stops them', async () => {
    const { user } = await signedInUser(t.database);
    await buy(user.id, 3);
    await buy(user.id, 1);
    const [row] = await t.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row?.pendingConnections).toBe(1);
    expect(await activeOf(user.id)).toEqual([
      [1, true],
      [2, true],
      [3, true],
    ]);
    const before = Math.max(...(await slotsOf(user.id)).map((slot) => slot.revision));
    await ordersJob(new Date((row?.pendingFrom?.getTime() ?? 0) + 1000));
    expect(await activeOf(user.id)).toEqual([
      [1, true],
      [2, false],
      [3, false],
    ]);
    const stopped = (await slotsOf(user.id)).filter((slot) => !slot.active);
    expect(stopped.every((slot) => slot.revision > before)).toBe(true);
  });

  it('stops every slot when the access ends, and starts them again with a renewal', async () => {
    const { user } = await signedInUser(t.database);
    await buy(user.id, 2);
    const end =
      (await t.database.db.select().from(users).where(eq(users.id, user.id)))[0]?.expireAt?.getTime() ?? 0;
    expect(await ordersJob(new Date(end - DAY_MS))).toMatchObject({ slotsDeactivated: 0 });
    await ordersJob(new Date(end + 1000));
    expect(await activeOf(user.id)).toEqual([
      [1, false],
      [2, false],
    ]);
    const credentials = (await slotsOf(user.id)).map((slot) => slot.credential);
    await buy(user.id, 2, new Date(end + 2000));
    expect(await activeOf(user.id)).toEqual([
      [1, true],
      [2, true],
    ]);
    // The same devices, set up once: their credentials and links did not change.
    expect((await slotsOf(user.id)).map((slot) => slot.credential)).toEqual(credentials);
  });

  it('stops a disabled account’s slots at once, and starts them again when it is enabled', async () => {
    const support = await signedInStaff(t.app, t.database, 'support');
    const { user } = await signedInUser(t.database);
    await buy(user.id, 1);
    await support.call('PATCH', `/users/${user.id}`, { disabled: true, reason: 'chargeback fraud' });
    expect(await activeOf(user.id)).toEqual([[1, false]]);
    await support.call('PATCH', `/users/${user.id}`, { disabled: false, reason: 'resolved' });
    expect(await activeOf(user.id)).toEqual([[1, true]]);
  });

  it('stops the slots at once when staff take the time back', async () => {
    const support = await signedInStaff(t.app, t.database, 'support');
    const { user } = await signedInUser(t.database);
    await buy(user.id, 1);
    await support.call('POST', `/users/${user.id}/time`, { days: -40, reason: 'refunded by phone' });
    expect(await activeOf(user.id)).toEqual([[1, false]]);
  });
});
