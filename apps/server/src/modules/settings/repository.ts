import { eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../../db/client.ts';
import { settings } from '../../db/schema/index.ts';

/** Every operator setting, its rule and its default (PRODUCT.md section 3). */
export const SETTINGS = {
  open_trial: z.enum(['0', '1']).default('1'),
  trial_minute: z.coerce
    .number()
    .int()
    .min(1)
    .max(366 * 24 * 60)
    .default(1440),
  invite_minute: z.coerce
    .number()
    .int()
    .min(1)
    .max(366 * 24 * 60)
    .default(1440),
  invite_daily_cap: z.coerce.number().int().min(0).max(10_000).default(10),
  max_connections: z.coerce.number().int().min(1).max(1000).default(10),
  // Stripe keeps a Checkout Session open at least 30 minutes; a shorter deadline still works, as a
  // payment after the deadline is credited anyway.
  order_pay_minutes: z.coerce
    .number()
    .int()
    .min(5)
    .max(24 * 60)
    .default(30),
} as const;

export type SettingKey = keyof typeof SETTINGS;
export type Settings = { [K in SettingKey]: z.infer<(typeof SETTINGS)[K]> };

export const isSettingKey = (key: string): key is SettingKey => key in SETTINGS;

/** The settings, stored values over defaults; a stored value that no longer parses falls back to the default. */
export async function readSettings(db: Database): Promise<Settings> {
  const rows = await db
    .select()
    .from(settings)
    .where(inArray(settings.key, Object.keys(SETTINGS)));
  const stored = new Map(rows.map((row) => [row.key, row.value]));
  const entries = Object.entries(SETTINGS).map(([key, schema]) => {
    const parsed = schema.safeParse(stored.get(key));
    return [key, parsed.success ? parsed.data : schema.parse(undefined)];
  });
  return Object.fromEntries(entries) as Settings;
}

/** Validates and stores one setting; throws with the rule when the value does not fit. */
export async function writeSetting(db: Database, key: SettingKey, value: string): Promise<void> {
  const parsed = SETTINGS[key].safeParse(value);
  if (!parsed.success)
    throw new Error(`${key}: ${parsed.error.issues.map((issue) => issue.message).join('; ')}`);
  const text = String(parsed.data);
  await db
    .insert(settings)
    .values({ key, value: text, updatedAt: new Date() })
    .onConflictDoUpdate({ target: settings.key, set: { value: text, updatedAt: new Date() } });
}

export async function resetSetting(db: Database, key: SettingKey): Promise<void> {
  await db.delete(settings).where(eq(settings.key, key));
}
