import { z } from 'zod';
import { isoTime } from './common.ts';

/** The windows the dashboard counts over: since the viewer's midnight, the last 7 and 30 days. */
export const DASHBOARD_WINDOWS = ['today', '7d', '30d'] as const;

/** `tz_offset`: the viewer's offset from UTC in minutes, as the browser's getTimezoneOffset() gives it. */
export const dashboardQuery = z.object({ tz_offset: z.coerce.number().int().min(-840).max(840).default(0) });

const perWindow = z.object({ today: z.number().int(), '7d': z.number().int(), '30d': z.number().int() });

export const dashboardSchema = z.object({
  generated_at: isoTime,
  /** Money credited to orders, per window, provider and currency, in the currency's minor unit (fen). */
  revenue: z.array(
    z.object({
      window: z.enum(DASHBOARD_WINDOWS),
      provider: z.string(),
      currency: z.string(),
      amount: z.number().int(),
      payments: z.number().int(),
    }),
  ),
  paid_orders: perWindow,
  new_accounts: perWindow,
  trials_claimed: perWindow,
  /**
   * Over the last 30 days: trials claimed, and accounts that paid their first order after a trial
   * (each counted when it paid).
   */
  trial_conversion: z.object({ trials: z.number().int(), converted: z.number().int() }),
  /**
   * Accounts with access, by subscribe_type (1 none: trial or rewards, 2 card, 3 App Store), as the
   * dashboard job last counted them (every few minutes).
   */
  active_subscribers: z.array(z.object({ subscribe_type: z.number().int(), accounts: z.number().int() })),
  /** Accounts whose access ends in the next 7 days. */
  renewals_due_7d: z.number().int(),
  /** When the subscribers were counted; null before the dashboard job's first run. */
  subscribers_counted_at: isoTime.nullable(),
  /** Payments the operator must refund or reconcile, and mail that could not be delivered. */
  attention: z.number().int(),
});

/** The days a chart of the dashboard covers. */
export const DAILY_DAYS = { min: 7, max: 90, default: 30 } as const;
export const dailyQuery = dashboardQuery.extend({
  days: z.coerce.number().int().min(DAILY_DAYS.min).max(DAILY_DAYS.max).default(DAILY_DAYS.default),
});

/** Day by day, in the viewer's days (`YYYY-MM-DD`), oldest first, today last: what the charts draw. */
export const dailySchema = z.array(
  z.object({
    day: z.string(),
    /** Money credited per currency, in its minor unit. */
    revenue: z.array(z.object({ currency: z.string(), amount: z.number().int() })),
    paid_orders: z.number().int(),
    new_accounts: z.number().int(),
    trials: z.number().int(),
  }),
);
