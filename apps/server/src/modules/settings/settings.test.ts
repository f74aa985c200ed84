import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settings } from '../../db/schema/index.ts';
import type { DatabaseHandle } from '../../db/client.ts';
import { openTestDatabase } from '../../testing/test-database.ts';
import { readSettings, resetSetting, writeSetting } from './repository.ts';

let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

describe('operator settings', () => {
  it('start from the product defaults', async () => {
    expect(await readSettings(database.db)).toEqual({
      open_trial: '1',
      trial_minute: 1440,
      invite_minute: 1440,
      invite_daily_cap: 10,
      max_connections: 10,
      order_pay_minutes: 30,
      device_grace_seconds: 60,
      reminder_days: '7,3,1',
    });
  });

  it('store a valid value and refuse an invalid one, changing nothing', async () => {
    await writeSetting(database.db, 'trial_minute', '120');
    await expect(writeSetting(database.db, 'trial_minute', '-5')).rejects.toThrow(/trial_minute/);
    await expect(writeSetting(database.db, 'open_trial', 'yes')).rejects.toThrow(/open_trial/);
    expect(await readSettings(database.db)).toMatchObject({ trial_minute: 120, open_trial: '1' });
    await resetSetting(database.db, 'trial_minute');
    expect((await readSettings(database.db)).trial_minute).toBe(1440);
  });

  it('fall back to the default when a stored value no longer parses', async () => {
    await database.db.insert(settings).values({ key: 'invite_daily_cap', value: 'lots' });
    expect((await readSettings(database.db)).invite_daily_cap).toBe(10);
  });
});
