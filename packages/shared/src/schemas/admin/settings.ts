import { z } from 'zod';
import { PERIOD_NAMES } from '../../plans.ts';

/** The days before the end of access an expiry reminder goes, most first ("7,3,1"; "" for none). */
export function reminderDays(text: string): number[] {
  if (text.trim() === '') return [];
  return text
    .split(',')
    .map((day) => Number(day.trim()))
    .sort((a, b) => b - a);
}

function isReminderDays(text: string): boolean {
  if (text === '') return true;
  const parts = text.split(',').map((day) => day.trim());
  const days = reminderDays(text);
  return (
    parts.every((part) => /^\d{1,2}$/.test(part)) &&
    days.length <= 5 &&
    new Set(days).size === days.length &&
    days.every((day) => day >= 1 && day <= 60)
  );
}

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
  // One device per slot: how long a second address may use a slot alongside the first before it is
  // refused (a phone moving from Wi-Fi to mobile data keeps its old connections a while).
  device_grace_seconds: z.coerce.number().int().min(0).max(3600).default(60),
  // Expiry reminders: how many days before the access ends each one goes, besides the one at the end.
  reminder_days: z
    .string()
    .trim()
    .refine(isReminderDays, 'expected up to 5 different whole days from 1 to 60, separated by commas')
    .default('7,3,1'),
} as const;

export const SETTING_KEYS = Object.keys(SETTINGS) as (keyof typeof SETTINGS)[];

/** The settings as they are in force (stored values over defaults), as strings and numbers. */
export const settingsSchema = z.object({
  open_trial: z.enum(['0', '1']),
  trial_minute: z.number().int(),
  invite_minute: z.number().int(),
  invite_daily_cap: z.number().int(),
  max_connections: z.number().int(),
  order_pay_minutes: z.number().int(),
  device_grace_seconds: z.number().int(),
  reminder_days: z.string(),
}) satisfies z.ZodType<{ [K in keyof typeof SETTINGS]: z.infer<(typeof SETTINGS)[K]> }>;

/**
 * A change to some settings: each key with its new value, checked by its rule, or null to go back to
 * its default. Several keys change together or not at all.
 */
export const settingsPatchRequest = z
  .partialRecord(z.enum(SETTING_KEYS), z.union([z.string(), z.number()]).nullable())
  .refine((patch) => Object.keys(patch).length > 0, { path: ['body'] });

/** A plan as the back office edits it: its unit price in fen per connection. */
export const planAdminSchema = z.object({
  period: z.enum(PERIOD_NAMES),
  months: z.number().int(),
  days: z.number().int(),
  unit_price: z.number().int(),
});
export const planParams = z.object({ period: z.enum(PERIOD_NAMES) });
export const planPatchRequest = z.object({ unit_price: z.number().int().min(1).max(10_000_000) });
