import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../db/schema/index.ts';
import { type SignedInStaff, signedInStaff } from '../../testing/staff.ts';
import { newClientAddress, useTestApp, webCaller } from '../../testing/test-app.ts';
import { readSettings } from '../settings/repository.ts';

describe('settings and prices in the back office', () => {
  const t = useTestApp();
  let admin: SignedInStaff;
  const web = webCaller(
    () => t.app,
    () => newClientAddress(),
  );

  beforeAll(async () => {
    admin = await signedInStaff(t.app, t.database, 'admin');
  });

  it('changes several settings together, each checked by the command’s rules, with one audit row', async () => {
    const reply = await admin.call('PATCH', '/settings', { trial_minute: 720, open_trial: '0' });
    expect(reply.json().data).toMatchObject({ trial_minute: 720, open_trial: '0' });
    const [row] = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'settings.change'));
    expect(row).toMatchObject({
      before: { trial_minute: 1440, open_trial: '1' },
      after: { trial_minute: 720, open_trial: '0' },
    });
    // The customers' calls read the new values.
    expect((await web('/web/plan/list')).statusCode).toBe(200);
    const reset = await admin.call('PATCH', '/settings', { trial_minute: null, open_trial: null });
    expect(reset.json().data).toMatchObject({ trial_minute: 1440, open_trial: '1' });
  });

  it('refuses a value out of its rule, and then changes nothing at all', async () => {
    const before = await readSettings(t.database.db);
    for (const body of [
      { trial_minute: 60, order_pay_minutes: 1 },
      { max_connections: 0 },
      { open_trial: 'yes' },
      { unknown_key: 1 },
      {},
    ]) {
      const reply = await admin.call('PATCH', '/settings', body);
      expect(reply.json()).toMatchObject({ code: 400 });
    }
    expect((await admin.call('PATCH', '/settings', { order_pay_minutes: 1 })).json().data.field).toBe(
      'order_pay_minutes',
    );
    expect(await readSettings(t.database.db)).toEqual(before);
  });

  it('sets a plan’s price, which the buy page shows at once', async () => {
    const reply = await admin.call('PATCH', '/plans/half_year', { unit_price: 13_900 });
    expect(reply.json().data).toMatchObject({ period: 'half_year', unit_price: 13_900 });
    const plans = (await web('/web/plan/list')).json().data.plans;
    expect(plans.find((plan: { period: string }) => plan.period === 'half_year').unit_price).toBe(13_900);
    expect((await admin.call('PATCH', '/plans/half_year', { unit_price: 0 })).statusCode).toBe(400);
    expect((await admin.call('PATCH', '/plans/decade', { unit_price: 100 })).statusCode).toBe(400);
    const [row] = await t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'plans.change_price'));
    expect(row).toMatchObject({ targetId: 'half_year', after: { unit_price: 13_900 } });
  });
});
