import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { NODE_API_VERSION } from '@skyway/shared/schemas/node-api';
import { deviceSlots, slotAddresses } from '../../db/schema/index.ts';
import { payingCustomer } from '../../testing/customers.ts';
import { type SignedInStaff, signedInStaff } from '../../testing/staff.ts';
import { newClientAddress, useTestApp, webCaller } from '../../testing/test-app.ts';
import { writeSetting } from '../settings/repository.ts';
import { countryOf, normalAddress } from './countries.ts';
import { type PresencePolicy, type Sighting, liveWindowMs, slotVerdict } from './rules.ts';
import { receiveSightings, slotsInUseElsewhere } from './service.ts';

const T0 = new Date('2026-11-25T10:00:00Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1_000);
const seen = (address: string, first: number, last: number): Sighting => ({
  address,
  firstSeenAt: at(first),
  lastSeenAt: at(last),
});
function firstSlot<T>(slots: readonly T[]): T {
  const [slot] = slots;
  if (!slot) throw new Error('the customer has no slot');
  return slot;
}

/** A minute's grace; sightings every 10 s count for 32 s. */
const POLICY: PresencePolicy = { graceMs: 60_000, liveMs: liveWindowMs(10) };

describe('one device per slot: the rule', () => {
  it('lets the first address hold the slot and a newer one share it within the grace window', () => {
    const verdict = slotVerdict([seen('198.51.100.7', 30, 80), seen('203.0.113.9', 0, 80)], at(80), POLICY);
    expect(verdict.holder?.address).toBe('203.0.113.9');
    // The newer one appeared 50 s ago: still within the minute.
    expect(verdict.refused).toEqual([]);
  });

  it('refuses the newer address once the holder is still seen a grace window after it appeared', () => {
    const verdict = slotVerdict([seen('198.51.100.7', 30, 95), seen('203.0.113.9', 0, 90)], at(95), POLICY);
    expect(verdict.holder?.address).toBe('203.0.113.9');
    expect(verdict.refused).toEqual(['198.51.100.7']);
  });

  it('does not refuse a phone moving networks: its old address stops being seen within the grace', () => {
    // Wi-Fi seen until 40 s, mobile data from 30 s on: the old connections lingered 10 s.
    const sightings = [seen('203.0.113.9', 0, 40), seen('198.51.100.7', 30, 120)];
    expect(slotVerdict(sightings, at(45), POLICY).refused).toEqual([]);
    const later = slotVerdict(sightings, at(120), POLICY);
    expect(later.holder?.address).toBe('198.51.100.7');
    expect(later.refused).toEqual([]);
  });

  it('hands the slot to the refused address once the holder has been gone for the liveness window', () => {
    const sightings = [seen('203.0.113.9', 0, 100), seen('198.51.100.7', 30, 130)];
    expect(slotVerdict(sightings, at(130), POLICY).refused).toEqual(['198.51.100.7']);
    // 32 s after the holder's last sighting it no longer counts.
    const after = slotVerdict(sightings, at(133), POLICY);
    expect(after.holder?.address).toBe('198.51.100.7');
    expect(after.refused).toEqual([]);
  });

  it('with no grace refuses a second address as soon as both are seen', () => {
    const verdict = slotVerdict([seen('203.0.113.9', 0, 10), seen('198.51.100.7', 10, 10)], at(10), {
      ...POLICY,
      graceMs: 0,
    });
    expect(verdict.refused).toEqual(['198.51.100.7']);
  });

  it('spells addresses one way and finds their country offline', () => {
    expect(normalAddress('::FFFF:61.219.0.1')).toBe('61.219.0.1');
    expect(normalAddress('2001:DB8::1')).toBe('2001:db8::1');
    expect(normalAddress('not an address')).toBeUndefined();
    expect(countryOf('61.219.0.1')).toBe('TW');
    expect(countryOf('114.114.114.114')).toBe('CN');
    expect(countryOf('2001:4860:4860::8888')).toBe('US');
    expect(countryOf('127.0.0.2')).toBeUndefined();
    expect(countryOf('192.168.1.20')).toBeUndefined();
    expect(countryOf('172.16.5.4')).toBeUndefined();
    expect(countryOf('fd00::5')).toBeUndefined();
  });
});

describe('one device per slot: through the node API', () => {
  const t = useTestApp({ NODE_ONLINE_INTERVAL_SECONDS: '10' });
  let admin: SignedInStaff;
  let token: string;
  const web = webCaller(
    () => t.app,
    () => newClientAddress(),
  );

  beforeAll(async () => {
    admin = await signedInStaff(t.app, t.database, 'admin');
    const created = await admin.call('POST', '/nodes', {
      name: 'Presence',
      region: 'HK',
      host: 'p.example.com',
    });
    const id = created.json().data.id as string;
    await admin.call('POST', `/nodes/${id}/inbounds`, {
      protocol: 'vless',
      port: 443,
      transport: 'tcp',
      security: 'none',
    });
    token = (await admin.call('POST', `/nodes/${id}/token`)).json().data.token as string;
  });

  const nodeCall = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({
      method,
      url,
      ...(payload ? { payload } : {}),
      headers: { authorization: `Bearer ${token}`, 'x-node-api': NODE_API_VERSION },
    });

  const refusedOf = async (slotId: string) => {
    const [slot] = await t.database.db.select().from(deviceSlots).where(eq(deviceSlots.id, slotId));
    return slot?.refusedAddresses;
  };

  it('tells the nodes how often to send live addresses', async () => {
    expect((await nodeCall('GET', '/node/v1/config')).json().data.online_interval).toBe(10);
  });

  it('refuses a second device on every node, shows where the slot is in use, and lets it in once the first is gone', async () => {
    await writeSetting(t.database.db, 'device_grace_seconds', '0');
    const { token: customerToken, slots, user } = await payingCustomer(t.database, 1);
    const customerId = user.id;
    const slot = firstSlot(slots);
    const { revision } = (await nodeCall('GET', '/node/v1/credentials?since=0')).json().data as {
      revision: number;
    };

    // The first device (Taiwan) alone: nothing refused.
    let reply = await nodeCall('POST', '/node/v1/online', {
      addresses: [{ id: slot.id, ips: ['61.219.0.1'] }],
    });
    expect(reply.statusCode, reply.body).toBe(200);
    expect(await refusedOf(slot.id)).toEqual([]);

    // A second device, from China, while the first is still there: refused (no grace).
    reply = await nodeCall('POST', '/node/v1/online', {
      addresses: [{ id: slot.id, ips: ['61.219.0.1', '::ffff:114.114.114.114'] }],
    });
    expect(reply.statusCode, reply.body).toBe(200);
    expect(await refusedOf(slot.id)).toEqual(['114.114.114.114']);

    // Every node learns it from its credentials: the slot changed since the revision it held.
    const changes = (await nodeCall('GET', `/node/v1/credentials?since=${revision}`)).json().data as {
      upsert: { id: string; refused: string[] }[];
    };
    expect(changes.upsert.find((credential) => credential.id === slot.id)?.refused).toEqual([
      '114.114.114.114',
    ]);

    // The customer sees it on My devices, with the holder's country.
    const listed = (await web('/web/device/list', {}, customerToken)).json().data.devices as {
      id: string;
      in_use_elsewhere: { country: string | null; refused_at: number } | null;
    }[];
    expect(listed[0]?.in_use_elsewhere).toMatchObject({ country: 'TW' });
    expect(listed[0]?.in_use_elsewhere?.refused_at).toBeGreaterThan(Date.now() / 1000 - 60);
    // Staff see the refused address on the customer's page.
    const staffView = (await admin.call('GET', `/users/${customerId}/devices`)).json().data.items as {
      refused: string[];
    }[];
    expect(staffView[0]?.refused).toEqual(['114.114.114.114']);

    // The first device goes away: once unseen for the liveness window, the second one holds the slot.
    const later = new Date(Date.now() + liveWindowMs(10) + 1_000);
    const policy = { graceMs: 0, liveMs: liveWindowMs(10) };
    await receiveSightings(t.database.db, [{ id: slot.id, ips: ['114.114.114.114'] }], later, policy);
    expect(await refusedOf(slot.id)).toEqual([]);
    const [row] = await t.database.db.select().from(deviceSlots).where(eq(deviceSlots.id, slot.id));
    expect(row?.refusedSince).toBeNull();
    expect((await slotsInUseElsewhere(t.database.db, row ? [row] : [], later, 10)).size).toBe(0);
  });

  it('ignores what is not an address and credentials that do not exist, and changes nothing for one device', async () => {
    const { slots } = await payingCustomer(t.database, 1);
    const slot = firstSlot(slots);
    const before = (await nodeCall('GET', '/node/v1/credentials?since=0')).json().data.revision as number;
    const reply = await nodeCall('POST', '/node/v1/online', {
      addresses: [
        { id: slot.id, ips: ['not-an-ip', '61.219.0.1'] },
        { id: crypto.randomUUID(), ips: ['61.219.0.2'] },
      ],
    });
    expect(reply.statusCode, reply.body).toBe(200);
    const rows = await t.database.db.select().from(slotAddresses).where(eq(slotAddresses.slotId, slot.id));
    expect(rows.map((row) => [row.address, row.country])).toEqual([['61.219.0.1', 'TW']]);
    const after = (await nodeCall('GET', `/node/v1/credentials?since=${before}`)).json().data as {
      upsert: { id: string }[];
    };
    expect(after.upsert.some((credential) => credential.id === slot.id)).toBe(false);
  });

  it('refuses a malformed body and an unknown node', async () => {
    expect((await nodeCall('POST', '/node/v1/online', { addresses: 'all' })).statusCode).toBe(400);
    const stranger = await t.app.inject({
      method: 'POST',
      url: '/node/v1/online',
      payload: { addresses: [] },
      headers: { authorization: 'Bearer nope', 'x-node-api': NODE_API_VERSION },
    });
    expect(stranger.statusCode).toBe(401);
  });

  it('takes the live addresses of a 1.0 agent’s fresh report, with the grace window of the setting', async () => {
    await writeSetting(t.database.db, 'device_grace_seconds', '3600');
    const { slots } = await payingCustomer(t.database, 1);
    const slot = firstSlot(slots);
    const now = Math.floor(Date.now() / 1000);
    const report = (sequence: number, ips: string[]) =>
      nodeCall('POST', '/node/v1/report', {
        sequence,
        from: now - 60,
        to: now,
        traffic: [],
        addresses: [{ id: slot.id, ips }],
      });
    expect((await report(now * 1000, ['61.219.0.1'])).statusCode).toBe(200);
    expect((await report(now * 1000 + 1, ['61.219.0.1', '114.114.114.114'])).statusCode).toBe(200);
    const rows = await t.database.db.select().from(slotAddresses).where(eq(slotAddresses.slotId, slot.id));
    expect(rows.map((row) => row.address).sort()).toEqual(['114.114.114.114', '61.219.0.1']);
    // An hour's grace: the second may share it for now.
    expect(await refusedOf(slot.id)).toEqual([]);
  });
});
