import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { NODE_API_VERSION } from '@skyway/shared/schemas/node-api';
import { auditLog, deviceSlots, trafficDiscrepancies, trafficHourly } from '../../db/schema/index.ts';
import { type SignedInStaff, signedInStaff } from '../../testing/staff.ts';
import { signedInUser, useTestApp } from '../../testing/test-app.ts';
import { inAccountTransaction } from '../access/access.ts';
import { reconcileTraffic } from './reconcile.ts';

const HOUR = 3_600_000;

describe('the traffic reconciliation', () => {
  const t = useTestApp();
  let finance: SignedInStaff;
  let admin: SignedInStaff;

  beforeAll(async () => {
    admin = await signedInStaff(t.app, t.database, 'admin');
    finance = await signedInStaff(t.app, t.database, 'finance');
  });

  /** A node, a customer's slot, and a report of theirs applied for an hour that has ended. */
  async function reported(hoursAgo: number) {
    const node = (
      await admin.call('POST', '/nodes', { name: `Node ${hoursAgo}`, region: 'HK', host: 'n.example.com' })
    ).json().data.id as string;
    const token = (await admin.call('POST', `/nodes/${node}/token`)).json().data.token as string;
    const { user } = await signedInUser(t.database);
    await inAccountTransaction(t.database.db, user.id, new Date(), (account) =>
      account.purchase({ id: `order-${user.id}`, days: 31, connections: 1 }),
    );
    const [slot] = await t.database.db.select().from(deviceSlots).where(eq(deviceSlots.userId, user.id));
    const to = Math.floor((Date.now() - hoursAgo * HOUR) / 1000);
    const reply = await t.app.inject({
      method: 'POST',
      url: '/node/v1/report',
      headers: { authorization: `Bearer ${token}`, 'x-node-api': NODE_API_VERSION },
      payload: { sequence: 1, from: to - 60, to, traffic: [{ id: slot?.id, upload: 100, download: 5_000 }] },
    });
    expect(reply.json().data.applied).toBe(true);
    return { node, slot: slot?.id as string };
  }

  it('finds nothing while the ledger holds what the reports brought', async () => {
    await reported(3);
    expect(await reconcileTraffic(t.database.db, new Date())).toEqual({ discrepancies: 0 });
  });

  it('puts an hour whose ledger lost bytes in the attention queue once, until staff have looked at it', async () => {
    const { node, slot } = await reported(5);
    // Bytes gone from the ledger after they were applied (a hand edit, a fault).
    await t.database.db
      .update(trafficHourly)
      .set({ download: 1_000 })
      .where(and(eq(trafficHourly.slotId, slot), eq(trafficHourly.nodeId, node)));

    expect(await reconcileTraffic(t.database.db, new Date())).toEqual({ discrepancies: 1 });
    expect(await reconcileTraffic(t.database.db, new Date())).toEqual({ discrepancies: 0 });

    const attention = (await finance.call('GET', '/attention')).json().data;
    const item = attention.traffic.find((entry: { node_id: string }) => entry.node_id === node);
    expect(item).toMatchObject({
      node_name: 'Node 5',
      reported: { upload: 100, download: 5_000 },
      ledger: { upload: 100, download: 1_000 },
    });
    expect(attention.counts.traffic).toBeGreaterThanOrEqual(1);

    const resolved = await finance.call('POST', `/traffic-discrepancies/${item.id}/resolve`, {
      reason: 'restored from backup',
    });
    expect(resolved.statusCode).toBe(200);
    const again = await finance.call('POST', `/traffic-discrepancies/${item.id}/resolve`, {
      reason: 'twice over',
    });
    expect(again.statusCode).toBe(409);
    const after = (await finance.call('GET', '/attention')).json().data;
    expect(after.traffic.map((entry: { id: string }) => entry.id)).not.toContain(item.id);
    const [row] = await t.database.db
      .select()
      .from(trafficDiscrepancies)
      .where(eq(trafficDiscrepancies.id, item.id));
    expect(row?.resolution).toBe('restored from backup');
    const audits = await t.database.db.select().from(auditLog).where(eq(auditLog.targetId, item.id));
    expect(audits.map((audit) => audit.action)).toEqual(['traffic.resolve']);
  });

  it('leaves the hour under way alone, and a viewer cannot resolve', async () => {
    const { node, slot } = await reported(0);
    await t.database.db
      .update(trafficHourly)
      .set({ upload: 0 })
      .where(and(eq(trafficHourly.slotId, slot), eq(trafficHourly.nodeId, node)));
    expect(await reconcileTraffic(t.database.db, new Date())).toEqual({ discrepancies: 0 });
    const viewer = await signedInStaff(t.app, t.database, 'viewer');
    const [some] = await t.database.db.select().from(trafficDiscrepancies);
    const refused = await viewer.call('POST', `/traffic-discrepancies/${some?.id}/resolve`, {
      reason: 'nope nope',
    });
    expect(refused.statusCode).toBe(403);
  });
});
