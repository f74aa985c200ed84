import { and, eq, gte, lt, max, ne, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import {
  dashboardHours,
  dashboardSubscribers,
  orders,
  payments,
  trialClaims,
  users,
} from '../../db/schema/index.ts';

/** A span of time, from (included) to (excluded). */
export interface Span {
  from: Date;
  to: Date;
}

/** The figures that add up hour by hour. */
export type HourlyFigure = 'revenue' | 'paid_orders' | 'new_accounts' | 'trials' | 'conversions';

export interface FigureRow {
  figure: HourlyFigure;
  provider: string;
  currency: string;
  amount: number;
  count: number;
}

const inSpan = (column: Parameters<typeof gte>[0], span: Span) =>
  and(gte(column, span.from), lt(column, span.to));

/** An order paid by an account after it claimed the trial, the first it paid since: a trial converted. */
const firstPaidAfterTrial = sql`exists (select 1 from ${trialClaims}
    where ${trialClaims.userId} = ${orders.userId} and ${trialClaims.claimedAt} <= ${orders.paidAt}
      and not exists (select 1 from ${orders} earlier
        where earlier.user_id = ${orders.userId} and earlier.status = 'paid'
          and earlier.paid_at >= ${trialClaims.claimedAt} and earlier.paid_at < ${orders.paidAt}))`;

/**
 * Each hourly figure over a span, counted from the tables themselves (each off an index on its time):
 * the live part of a window, and what the dashboard job writes for each hour.
 */
export async function figuresIn(db: Database, span: Span, byHour: boolean) {
  const hourOf = (column: unknown) => sql<Date>`date_trunc('hour', ${column}, 'UTC')`;
  const hour = (column: unknown) => (byHour ? hourOf(column) : sql<Date>`${span.from}::timestamptz`);
  const [money, paid, accounts, trials, converted] = await Promise.all([
    db
      .select({
        hour: hour(payments.createdAt),
        provider: payments.provider,
        currency: payments.currency,
        amount: sql<number>`sum(${payments.amount})::bigint`,
        count: sql<number>`count(*)::int`,
      })
      .from(payments)
      .where(and(eq(payments.outcome, 'credited'), inSpan(payments.createdAt, span)))
      .groupBy(sql`1`, payments.provider, payments.currency),
    db
      .select({ hour: hour(orders.paidAt), count: sql<number>`count(*)::int` })
      .from(orders)
      .where(and(eq(orders.status, 'paid'), inSpan(orders.paidAt, span)))
      .groupBy(sql`1`),
    db
      .select({ hour: hour(users.createdAt), count: sql<number>`count(*)::int` })
      .from(users)
      .where(inSpan(users.createdAt, span))
      .groupBy(sql`1`),
    db
      .select({ hour: hour(trialClaims.claimedAt), count: sql<number>`count(*)::int` })
      .from(trialClaims)
      .where(inSpan(trialClaims.claimedAt, span))
      .groupBy(sql`1`),
    db
      .select({ hour: hour(orders.paidAt), count: sql<number>`count(*)::int` })
      .from(orders)
      .where(and(eq(orders.status, 'paid'), inSpan(orders.paidAt, span), firstPaidAfterTrial))
      .groupBy(sql`1`),
  ]);
  const counted = (figure: HourlyFigure, rows: { hour: Date; count: number }[]) =>
    rows.map((row) => ({
      hour: new Date(row.hour),
      figure,
      provider: '',
      currency: '',
      amount: 0,
      count: row.count,
    }));
  return [
    ...money.map((row) => ({
      ...row,
      hour: new Date(row.hour),
      figure: 'revenue' as const,
      amount: Number(row.amount),
    })),
    ...counted('paid_orders', paid),
    ...counted('new_accounts', accounts),
    ...counted('trials', trials),
    ...counted('conversions', converted),
  ];
}

/** The end (excluded) of the hours the dashboard job has written, or null before its first run. */
export async function rolledUntil(db: Database): Promise<Date | null> {
  const [row] = await db
    .select({ last: max(dashboardHours.hour) })
    .from(dashboardHours)
    .where(eq(dashboardHours.figure, 'rolled'));
  return row?.last ? new Date(new Date(row.last).getTime() + 3_600_000) : null;
}

/** Writes the figures of the whole hours of a span (again, the same, if another instance did). */
export async function writeHours(db: Database, span: Span): Promise<number> {
  const rows = await figuresIn(db, span, true);
  const hours: Date[] = [];
  for (let at = span.from.getTime(); at < span.to.getTime(); at += 3_600_000) hours.push(new Date(at));
  const all = [
    ...rows,
    ...hours.map((hour) => ({ hour, figure: 'rolled', provider: '', currency: '', amount: 0, count: 1 })),
  ];
  await db.transaction(async (tx) => {
    for (let i = 0; i < all.length; i += 1000) {
      await tx
        .insert(dashboardHours)
        .values(all.slice(i, i + 1000))
        .onConflictDoUpdate({
          target: [
            dashboardHours.hour,
            dashboardHours.figure,
            dashboardHours.provider,
            dashboardHours.currency,
          ],
          set: { amount: sql`excluded.amount`, count: sql`excluded.count` },
        });
    }
  });
  return hours.length;
}

/**
 * The written hours' sums, for each window start given: hours from the start (a whole hour) to the
 * end of the written hours.
 */
export async function hourSums(db: Database, starts: Record<string, Date>, until: Date) {
  const earliest = new Date(Math.min(...Object.values(starts).map((start) => start.getTime())));
  const sums = Object.fromEntries(
    Object.entries(starts).flatMap(([name, start]) => [
      [
        `${name}Amount`,
        sql<number>`coalesce(sum(${dashboardHours.amount}) filter (where ${dashboardHours.hour} >= ${start}), 0)::bigint`,
      ],
      [
        `${name}Count`,
        sql<number>`coalesce(sum(${dashboardHours.count}) filter (where ${dashboardHours.hour} >= ${start}), 0)::int`,
      ],
    ]),
  );
  const rows = await db
    .select({
      figure: dashboardHours.figure,
      provider: dashboardHours.provider,
      currency: dashboardHours.currency,
      ...sums,
    })
    .from(dashboardHours)
    .where(
      and(
        gte(dashboardHours.hour, earliest),
        lt(dashboardHours.hour, until),
        ne(dashboardHours.figure, 'rolled'),
      ),
    )
    .groupBy(dashboardHours.figure, dashboardHours.provider, dashboardHours.currency);
  return rows as (Record<string, number | string> & { figure: string; provider: string; currency: string })[];
}

/** The accounts with access now, by type, and those due within 7 days (`users_expire_at_idx` alone). */
export function subscriberCounts(db: Database, now: Date) {
  const weekAhead = new Date(now.getTime() + 7 * 86_400_000);
  return db
    .select({
      subscribeType: users.subscribeType,
      accounts: sql<number>`count(*)::int`,
      dueSoon: sql<number>`(count(*) filter (where ${users.expireAt} <= ${weekAhead}))::int`,
    })
    .from(users)
    .where(sql`${users.expireAt} > ${now}`)
    .groupBy(users.subscribeType);
}

/** Counts the subscribers again for the dashboard, replacing the last count. */
export async function countSubscribers(db: Database, now: Date): Promise<void> {
  const rows = await subscriberCounts(db, now);
  await db.transaction(async (tx) => {
    await tx.delete(dashboardSubscribers);
    if (rows.length > 0) {
      await tx.insert(dashboardSubscribers).values(rows.map((row) => ({ ...row, countedAt: now })));
    }
  });
}

export const readSubscribers = (db: Database) => db.select().from(dashboardSubscribers);

/** The written hours of a span, each figure per hour and currency (for the charts, day by day). */
export function writtenHours(db: Database, from: Date, until: Date) {
  return db
    .select({
      hour: dashboardHours.hour,
      figure: dashboardHours.figure,
      currency: dashboardHours.currency,
      amount: sql<number>`sum(${dashboardHours.amount})::bigint`,
      count: sql<number>`sum(${dashboardHours.count})::int`,
    })
    .from(dashboardHours)
    .where(
      and(
        gte(dashboardHours.hour, from),
        lt(dashboardHours.hour, until),
        ne(dashboardHours.figure, 'rolled'),
      ),
    )
    .groupBy(dashboardHours.hour, dashboardHours.figure, dashboardHours.currency);
}
