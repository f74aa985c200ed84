import type { z } from 'zod';
import {
  DASHBOARD_WINDOWS,
  type dailySchema,
  type dashboardSchema,
} from '@skyway/shared/schemas/admin/dashboard';
import { ATTENTION_MAIL_DAYS } from '@skyway/shared/schemas/admin/sales';
import type { Database } from '../../db/client.ts';
import { attentionCounts } from '../sales/repository.ts';
import {
  countSubscribers,
  type FigureRow,
  figuresIn,
  hourSums,
  type HourlyFigure,
  readSubscribers,
  rolledUntil,
  type Span,
  writeHours,
  writtenHours,
} from './repository.ts';

export const DASHBOARD_JOB = 'dashboard';
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** An hour is written once it ended this long ago: a transaction that began in it has committed by then. */
export const ROLLUP_LAG_MS = 5 * 60_000;
/** How far back a first run writes hours: the longest window, and a day to spare. */
const HISTORY_DAYS = 31;

type Window = (typeof DASHBOARD_WINDOWS)[number];

const floorHour = (ms: number) => Math.floor(ms / HOUR_MS) * HOUR_MS;
const ceilHour = (ms: number) => Math.ceil(ms / HOUR_MS) * HOUR_MS;

/**
 * The windows' starts: the viewer's midnight (from their offset to UTC in minutes, as the browser's
 * getTimezoneOffset() gives it), and 7 and 30 days back from the start of the current hour.
 */
export function windowsAt(now: Date, tzOffsetMinutes: number): Record<Window, Date> {
  const shift = tzOffsetMinutes * 60_000;
  const localMidnight = Math.floor((now.getTime() - shift) / DAY_MS) * DAY_MS;
  const hour = floorHour(now.getTime());
  return {
    today: new Date(localMidnight + shift),
    '7d': new Date(hour - 7 * DAY_MS),
    '30d': new Date(hour - 30 * DAY_MS),
  };
}

/**
 * The dashboard job: writes the figures of every whole hour not yet written (the last 31 days on a
 * first run), a day at a time, and counts the subscribers. Safe on several instances: an hour written
 * twice is written the same.
 */
export async function rollUpDashboard(db: Database, now: Date): Promise<{ hours: number }> {
  const end = floorHour(now.getTime() - ROLLUP_LAG_MS);
  const start = (await rolledUntil(db))?.getTime() ?? end - HISTORY_DAYS * DAY_MS;
  let hours = 0;
  for (let from = start; from < end; from += DAY_MS) {
    hours += await writeHours(db, { from: new Date(from), to: new Date(Math.min(from + DAY_MS, end)) });
  }
  await countSubscribers(db, now);
  return { hours };
}

const keyOf = (row: Pick<FigureRow, 'figure' | 'provider' | 'currency'>) =>
  `${row.figure}|${row.provider}|${row.currency}`;

/**
 * Every figure of the dashboard: each window's whole written hours from `dashboard_hours`, and the
 * rest (since the last written hour, and the part hour before a midnight that is not on the hour)
 * counted live, which is never more than an hour or two of rows.
 */
export async function dashboard(
  db: Database,
  now: Date,
  tzOffsetMinutes: number,
): Promise<z.infer<typeof dashboardSchema>> {
  const starts = windowsAt(now, tzOffsetMinutes);
  const written = (await rolledUntil(db))?.getTime() ?? 0;
  const liveSpans = new Map<string, Span>();
  const spansOf = {} as Record<Window, string[]>;
  const hourStarts = {} as Record<Window, Date>;
  for (const window of DASHBOARD_WINDOWS) {
    const start = starts[window].getTime();
    const firstHour = ceilHour(start);
    hourStarts[window] = new Date(firstHour);
    const spans: [number, number][] =
      firstHour < written
        ? [
            [start, firstHour],
            [written, now.getTime()],
          ]
        : [[start, now.getTime()]];
    spansOf[window] = spans
      .filter(([from, to]) => from < to)
      .map(([from, to]) => {
        const key = `${from}-${to}`;
        liveSpans.set(key, { from: new Date(from), to: new Date(to) });
        return key;
      });
  }
  const spanKeys = [...liveSpans.keys()];
  const [sums, liveRows, subscribers, attention] = await Promise.all([
    written ? hourSums(db, hourStarts, new Date(written)) : Promise.resolve([]),
    Promise.all([...liveSpans.values()].map((span) => figuresIn(db, span, false))),
    readSubscribers(db),
    attentionCounts(db, now, ATTENTION_MAIL_DAYS).then((counts) =>
      Object.values(counts).reduce((sum, n) => sum + n, 0),
    ),
  ]);

  /** Each window's totals, by figure, provider and currency. */
  const totals = Object.fromEntries(
    DASHBOARD_WINDOWS.map((window) => {
      const byKey = new Map<string, FigureRow>();
      const add = (row: FigureRow) => {
        const key = keyOf(row);
        const sum = byKey.get(key) ?? { ...row, amount: 0, count: 0 };
        byKey.set(key, { ...sum, amount: sum.amount + row.amount, count: sum.count + row.count });
      };
      for (const row of sums) {
        const figure = row.figure as FigureRow['figure'];
        add({
          figure,
          provider: row.provider,
          currency: row.currency,
          amount: Number(row[`${window}Amount`]),
          count: Number(row[`${window}Count`]),
        });
      }
      for (const key of spansOf[window]) for (const row of liveRows[spanKeys.indexOf(key)] ?? []) add(row);
      return [window, [...byKey.values()]];
    }),
  ) as Record<Window, FigureRow[]>;

  const countOf = (window: Window, figure: HourlyFigure) =>
    totals[window].filter((row) => row.figure === figure).reduce((sum, row) => sum + row.count, 0);
  const perWindow = (figure: HourlyFigure) =>
    Object.fromEntries(DASHBOARD_WINDOWS.map((window) => [window, countOf(window, figure)])) as Record<
      Window,
      number
    >;
  return {
    generated_at: now.toISOString(),
    revenue: DASHBOARD_WINDOWS.flatMap((window) =>
      totals[window]
        .filter((row) => row.figure === 'revenue' && row.count > 0)
        .map((row) => ({
          window,
          provider: row.provider,
          currency: row.currency,
          amount: row.amount,
          payments: row.count,
        })),
    ),
    paid_orders: perWindow('paid_orders'),
    new_accounts: perWindow('new_accounts'),
    trials_claimed: perWindow('trials'),
    trial_conversion: { trials: countOf('30d', 'trials'), converted: countOf('30d', 'conversions') },
    active_subscribers: subscribers.map((row) => ({
      subscribe_type: row.subscribeType,
      accounts: row.accounts,
    })),
    renewals_due_7d: subscribers.reduce((sum, row) => sum + row.dueSoon, 0),
    subscribers_counted_at: subscribers[0]?.countedAt.toISOString() ?? null,
    attention,
  };
}

/**
 * The dashboard's figures day by day over the last `days` days, in the viewer's days: the written
 * hours of each day, and today's unwritten ones counted live. An hour counts for the day it starts
 * in, which is exact for every offset that is whole hours.
 */
export async function dailyFigures(
  db: Database,
  now: Date,
  tzOffsetMinutes: number,
  days: number,
): Promise<z.infer<typeof dailySchema>> {
  const shift = -tzOffsetMinutes * 60_000;
  const dayOf = (at: number) => new Date(at + shift).toISOString().slice(0, 10);
  const today = windowsAt(now, tzOffsetMinutes).today.getTime();
  const from = new Date(today - (days - 1) * DAY_MS);
  const written = (await rolledUntil(db)) ?? from;
  const liveFrom = written.getTime() > from.getTime() ? written : from;
  const [hours, live] = await Promise.all([
    writtenHours(db, from, written),
    figuresIn(db, { from: liveFrom, to: now }, true),
  ]);
  const series = new Map<string, z.infer<typeof dailySchema>[number]>();
  for (let at = from.getTime(); at <= today; at += DAY_MS) {
    const day = dayOf(at);
    series.set(day, { day, revenue: [], paid_orders: 0, new_accounts: 0, trials: 0 });
  }
  for (const row of [...hours, ...live]) {
    const entry = series.get(dayOf(new Date(row.hour).getTime()));
    if (!entry) continue;
    if (row.figure === 'revenue') {
      const money = entry.revenue.find((sum) => sum.currency === row.currency);
      if (money) money.amount += Number(row.amount);
      else entry.revenue.push({ currency: row.currency, amount: Number(row.amount) });
    } else if (row.figure === 'paid_orders' || row.figure === 'new_accounts' || row.figure === 'trials') {
      entry[row.figure] += Number(row.count);
    }
  }
  return [...series.values()];
}
