import { eq, inArray } from 'drizzle-orm';
import type { z } from 'zod';
import { SETTINGS } from '@skyway/shared/schemas/admin/settings';
import type { Database } from '../../db/client.ts';
import { settings } from '../../db/schema/index.ts';

export { SETTINGS };

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
