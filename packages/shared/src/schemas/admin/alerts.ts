import { z } from 'zod';

/**
 * What a member of staff may be alerted to (PRODUCT.md section 11): a node not reporting, the mail
 * or Telegram queue stuck, a job failing twice in a row, the attention queue no longer empty, a
 * gateway's notifies refused.
 */
export const STAFF_ALERT_KINDS = [
  'node_silent',
  'mail_stuck',
  'telegram_stuck',
  'job_failing',
  'attention',
  'gateway_failing',
] as const;
export type StaffAlertKind = (typeof STAFF_ALERT_KINDS)[number];

export const STAFF_ALERT_CHANNELS = ['mail', 'telegram'] as const;
export type StaffAlertChannel = (typeof STAFF_ALERT_CHANNELS)[number];

/** Each alert as it happens, or one digest a day (09:00 UTC+8). */
export const STAFF_ALERT_DELIVERIES = ['at_once', 'digest'] as const;
export type StaffAlertDelivery = (typeof STAFF_ALERT_DELIVERIES)[number];

/** A member's own choice: the channel (Telegram only while bound), the kinds, how they come. */
const preferences = {
  channel: z.enum(STAFF_ALERT_CHANNELS),
  kinds: z
    .array(z.enum(STAFF_ALERT_KINDS))
    .max(STAFF_ALERT_KINDS.length)
    .refine((kinds) => new Set(kinds).size === kinds.length, 'each kind once'),
  delivery: z.enum(STAFF_ALERT_DELIVERIES),
};
/** Strict: a call naming anything else (another member) is refused, not quietly narrowed. */
export const staffAlertPreferencesRequest = z.strictObject(preferences);
export type StaffAlertPreferencesRequest = z.infer<typeof staffAlertPreferencesRequest>;

/** "My alerts": the member's choice, and their Telegram binding. */
export const myAlertsSchema = z.object({
  ...preferences,
  telegram: z.object({
    /** The site has a bot set up: binding is possible. */
    available: z.boolean(),
    bound: z.boolean(),
    bound_at: z.string().nullable(),
    bot_username: z.string().nullable(),
  }),
});
export type MyAlerts = z.infer<typeof myAlertsSchema>;
