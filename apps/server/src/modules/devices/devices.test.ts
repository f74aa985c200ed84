import { asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { deviceSlots, users } from '../../db/schema/index.ts';
import { runOrdersJob } from '../orders/orders-job.ts';
import {
  newClientAddress,
  signedInUser,
  TEST_SUBSCRIPTION_KEY,
  useTestApp,
  webCaller,
} from '../../testing/test-app.ts';
import { inAccountTransaction } from '../access/access.ts';
import { createSandboxProvider } from '../payments/sandbox.ts';
import { hashToken } from '../../lib/token-hash.ts';
import { subscriptionToken } from './tokens.ts';
import { fulfilDeps } from '../../testing/payments.ts';

interface Device {
  id: string;
  position: number;
  name: string | null;
  platform: string | null;
  active: boolean;
  url: string;
}

describe('My devices: the console calls of the device slots', () => {
  const t = useTestApp();
  const web = webCaller(
    () => t.app,
    () => newClientAddress(),
  );

  async function customer(connections: number) {
    const { user, token } = await signedInUser(t.database);
    if (connections > 0) {
      await inAccountTransaction(t.database.db, user.id, new Date(), (account) =>
        account.purchase({ id: `order-${user.id}-${connections}`, days: 31, connections }),
      );
    }
    return { user, token };
  }
  const list = async (token: string) =>
    (await web('/web/device/list', {}, token)).json().data as { devices: Device[]; usable: number };
  const rowsOf = (userId: string) =>
    t.database.db
      .select()
      .from(deviceSlots)
      .where(eq(deviceSlots.userId, userId))
      .orderBy(asc(deviceSlots.position));
  const tokenOf = (url: string) => url.split('/s/')[1] ?? '';

  it('lists a slot per paid connection, each with a link of its own whose token is stored only hashed', async () => {
    const none = await customer(0);
    expect(await list(none.token)).toEqual({ devices: [], usable: 0 });
    const { user, token } = await customer(2);
    const { devices, usable } = await list(token);
    expect(usable).toBe(2);
    expect(devices.map((device) => [device.position, device.active, device.name])).toEqual([
      [1, true, null],
      [2, true, null],
    ]);
    for (const device of devices) {
      expect(device.url).toMatch(/^http:\/\/localhost(:\d+)?\/s\/[\w-]{43}$/);
      const stored = (await rowsOf(user.id)).find((row) => row.id === device.id);
      expect(stored?.tokenHash).toBe(hashToken(tokenOf(device.url)));
      expect(JSON.stringify(stored)).not.toContain(tokenOf(device.url));
    }
    expect(new Set(devices.map((device) => device.url)).size).toBe(2);
    // Shown again, the same links.
    expect((await list(token)).devices.map((device) => device.url)).toEqual(
      devices.map((device) => device.url),
    );
  });

  it('renames a slot and marks its platform; another customer’s slot is not found', async () => {
    const { token } = await customer(1);
    const [device] = (await list(token)).devices;
    const renamed = await web(
      '/web/device/rename',
      { id: device?.id, name: ' 我的 iPhone ', platform: 'ios' },
      token,
    );
    expect(renamed.json().data).toMatchObject({ name: '我的 iPhone', platform: 'ios', url: device?.url });
    for (const body of [
      { id: device?.id, name: '' },
      { id: device?.id, name: 'x'.repeat(33) },
      { id: device?.id, name: 'a', platform: 'amiga' },
    ]) {
      expect((await web('/web/device/rename', body, token)).json()).toMatchObject({ code: 400 });
    }
    const other = await customer(1);
    expect(
      (await web('/web/device/rename', { id: device?.id, name: 'mine now' }, other.token)).json(),
    ).toMatchObject({
      code: 404,
    });
    expect((await web('/web/device/regenerate', { id: device?.id }, other.token)).json()).toMatchObject({
      code: 404,
    });
    expect((await list(token)).devices[0]?.name).toBe('我的 iPhone');
  });

  it('regenerates a slot: a new credential and link, the old ones gone; 20 at once leave exactly one', async () => {
    const { user, token } = await customer(1);
    const [device] = (await list(token)).devices;
    const [before] = await rowsOf(user.id);
    const fresh = (await web('/web/device/regenerate', { id: device?.id }, token)).json().data as Device;
    expect(fresh.url).not.toBe(device?.url);
    const [after] = await rowsOf(user.id);
    expect(after?.credential).not.toBe(before?.credential);
    expect(after?.secret).not.toBe(before?.secret);
    expect(after?.revision).toBeGreaterThan(before?.revision ?? 0);
    expect(after?.tokenHash).toBe(hashToken(tokenOf(fresh.url)));

    const replies = await Promise.all(
      Array.from({ length: 20 }, () => web('/web/device/regenerate', { id: device?.id }, token)),
    );
    expect(replies.every((reply) => reply.json().code === 200)).toBe(true);
    const rows = await rowsOf(user.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.tokenVersion).toBe((after?.tokenVersion ?? 0) + 20);
    // The link shown last is the one that works; it is one of those handed out.
    const current = subscriptionToken(TEST_SUBSCRIPTION_KEY, {
      id: rows[0]?.id ?? '',
      tokenVersion: rows[0]?.tokenVersion ?? 0,
    });
    expect(rows[0]?.tokenHash).toBe(hashToken(current));
    expect(replies.map((reply) => tokenOf(reply.json().data.url))).toContain(current);
  });

  it('keeps the slots the customer chooses when a downgrade comes due', async () => {
    const { user, token } = await customer(3);
    await inAccountTransaction(t.database.db, user.id, new Date(), (account) =>
      account.purchase({ id: `downgrade-${user.id}`, days: 31, connections: 1 }),
    );
    const devices = (await list(token)).devices;
    const third = devices[2] as Device;
    const kept = (await web('/web/device/keep', { ids: [third.id] }, token)).json().data as {
      devices: Device[];
    };
    expect(kept.devices.map((device) => [device.id, device.position, device.active])).toEqual([
      [third.id, 1, true],
      [devices[0]?.id, 2, true],
      [devices[1]?.id, 3, true],
    ]);
    const [row] = await t.database.db.select().from(users).where(eq(users.id, user.id));
    await runOrdersJob(
      { ...fulfilDeps(t), provider: createSandboxProvider(), log: t.app.log },
      new Date((row?.pendingFrom?.getTime() ?? 0) + 1000),
    );
    const after = (await list(token)).devices;
    expect(after.map((device) => [device.id, device.active])).toEqual([
      [third.id, true],
      [devices[0]?.id, false],
      [devices[1]?.id, false],
    ]);
    expect((await web('/web/device/keep', { ids: [crypto.randomUUID()] }, token)).json()).toMatchObject({
      code: 404,
    });
  });

  it('binds each of our apps’ devices to a free slot of its own, and says which are taken when none is left', async () => {
    const { token } = await customer(2);
    const bind = (hwid?: string) =>
      t.app.inject({
        method: 'POST',
        url: '/web/device/bind',
        payload: {},
        headers: { authorization: token, ...(hwid === undefined ? {} : { 'x-hwid': hwid }) },
        remoteAddress: newClientAddress(),
      });
    const first = (await bind('phone-a')).json().data;
    expect(first.device).toMatchObject({ position: 1, active: true });
    expect((await bind('phone-a')).json().data.device.id).toBe(first.device.id);
    const second = (await bind('laptop-b')).json().data;
    expect(second.device.position).toBe(2);
    expect(second.device.url).not.toBe(first.device.url);
    const third = (await bind('tablet-c')).json().data;
    expect(third.device).toBeNull();
    expect(third.taken.map((slot: { position: number }) => slot.position)).toEqual([1, 2]);
    for (const hwid of [undefined, '', 'x'.repeat(129)]) {
      expect((await bind(hwid)).json()).toMatchObject({ code: 400, data: { field: 'x-hwid' } });
    }
    // Devices asking at once never share a slot.
    const other = await customer(2);
    const replies = await Promise.all(
      ['d1', 'd2', 'd3', 'd4', 'd5'].map((hwid) =>
        t.app.inject({
          method: 'POST',
          url: '/web/device/bind',
          payload: {},
          headers: { authorization: other.token, 'x-hwid': hwid },
          remoteAddress: newClientAddress(),
        }),
      ),
    );
    const granted = replies.map((reply) => reply.json().data.device?.id).filter(Boolean);
    expect(granted).toHaveLength(2);
    expect(new Set(granted).size).toBe(2);
  });

  it('answers only a signed-in customer', async () => {
    expect((await web('/web/device/list', {})).json()).toMatchObject({ code: 401 });
  });
});
