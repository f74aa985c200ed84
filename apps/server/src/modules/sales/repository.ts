import { and, asc, count, desc, eq, gte, inArray, isNull, lt, ne, type SQL, sql } from 'drizzle-orm';
import type { SortOrder } from '@skyway/shared/schemas/admin/common';
import type { Database } from '../../db/client.ts';
import { countUpToCap, inOrder } from '../../db/lists.ts';
import {
  mailOutbox,
  orders,
  payments,
  providerNotices,
  refunds,
  users,
  type RefundRow,
} from '../../db/schema/index.ts';
import { nodeNames } from '../nodes/repository.ts';
import { openDiscrepancies, openDiscrepancyCount } from '../traffic/discrepancies.ts';

export interface SalesFilter {
  provider?: string;
  userId?: string;
  from?: string;
  to?: string;
  order: SortOrder;
}

export interface Page {
  limit: number;
  offset: number;
}

function timeConditions(
  column: typeof orders.createdAt | typeof payments.createdAt,
  filter: SalesFilter,
): SQL[] {
  return [
    ...(filter.from ? [gte(column, new Date(filter.from))] : []),
    ...(filter.to ? [lt(column, new Date(filter.to))] : []),
  ];
}

/** All orders, newest (or oldest) first off `orders_created_idx`, or a buyer's off `orders_user_idx`. */
export async function listOrders(db: Database, filter: SalesFilter & { status?: string }, page: Page) {
  const where = and(
    ...timeConditions(orders.createdAt, filter),
    ...(filter.status ? [eq(orders.status, filter.status)] : []),
    ...(filter.provider ? [eq(orders.provider, filter.provider)] : []),
    ...(filter.userId ? [eq(orders.userId, filter.userId)] : []),
  );
  const sorted = inOrder(filter.order, orders.createdAt, orders.id);
  const [rows, counted] = await Promise.all([
    db
      .select({ order: orders, email: users.email })
      .from(orders)
      .innerJoin(users, eq(users.id, orders.userId))
      .where(where)
      .orderBy(...sorted)
      .limit(page.limit)
      .offset(page.offset),
    countUpToCap(db, (limit) =>
      db
        .select({ one: sql`1` })
        .from(orders)
        .where(where)
        .orderBy(...sorted)
        .limit(limit)
        .as('capped'),
    ),
  ]);
  return { rows, ...counted };
}

const paymentColumns = { payment: payments, userId: orders.userId, email: users.email };

/** All payments, newest (or oldest) first off `payments_created_idx`, with their buyer. */
export async function listPayments(db: Database, filter: SalesFilter & { outcome?: string }, page: Page) {
  const where = and(
    ...timeConditions(payments.createdAt, filter),
    ...(filter.outcome ? [eq(payments.outcome, filter.outcome)] : []),
    ...(filter.provider ? [eq(payments.provider, filter.provider)] : []),
    ...(filter.userId ? [eq(orders.userId, filter.userId)] : []),
  );
  const sorted = inOrder(filter.order, payments.createdAt, payments.id);
  const [rows, counted] = await Promise.all([
    db
      .select(paymentColumns)
      .from(payments)
      .innerJoin(orders, eq(orders.id, payments.orderId))
      .innerJoin(users, eq(users.id, orders.userId))
      .where(where)
      .orderBy(...sorted)
      .limit(page.limit)
      .offset(page.offset),
    countUpToCap(db, (limit) =>
      db
        .select({ one: sql`1` })
        .from(payments)
        .innerJoin(orders, eq(orders.id, payments.orderId))
        .where(where)
        .orderBy(...sorted)
        .limit(limit)
        .as('capped'),
    ),
  ]);
  return { rows, ...counted };
}

export type PaymentWithBuyer = Awaited<ReturnType<typeof listPayments>>['rows'][number];

/** The latest refund of each payment (a live one, else the last that failed). */
export async function latestRefunds(db: Database, paymentIds: string[]): Promise<Map<string, RefundRow>> {
  if (paymentIds.length === 0) return new Map();
  const rows = await db
    .select()
    .from(refunds)
    .where(inArray(refunds.paymentId, paymentIds))
    .orderBy(asc(refunds.createdAt));
  return new Map(rows.map((row) => [row.paymentId, row]));
}

export async function findPaymentWithBuyer(db: Database, id: string): Promise<PaymentWithBuyer | undefined> {
  const [row] = await db
    .select(paymentColumns)
    .from(payments)
    .innerJoin(orders, eq(orders.id, payments.orderId))
    .innerJoin(users, eq(users.id, orders.userId))
    .where(eq(payments.id, id));
  return row;
}

/** The payments that gave no time and that nobody has dealt with yet (`payments_needs_operator_idx`). */
const unsettled = and(ne(payments.outcome, 'credited'), isNull(payments.settledAt));
/**
 * Refunds that failed, or wait to be asked again (`refunds_attention_idx`), of payments nobody has
 * settled since (by a later refund, or by hand).
 */
const unfinishedRefund = and(ne(refunds.status, 'succeeded'), isNull(payments.settledAt));
const openNotice = isNull(providerNotices.resolvedAt);
const recentFailedMail = (now: Date, days: number) =>
  and(
    eq(mailOutbox.status, 'failed'),
    gte(mailOutbox.createdAt, new Date(now.getTime() - days * 86_400_000)),
  );

/** The attention queue's items, the newest `limit` of each kind. */
export async function attentionItems(db: Database, now: Date, options: { limit: number; mailDays: number }) {
  const [unsettledPayments, refundPayments, notices, mail, discrepancies] = await Promise.all([
    db
      .select(paymentColumns)
      .from(payments)
      .innerJoin(orders, eq(orders.id, payments.orderId))
      .innerJoin(users, eq(users.id, orders.userId))
      .where(unsettled)
      .orderBy(desc(payments.createdAt))
      .limit(options.limit),
    db
      .select(paymentColumns)
      .from(refunds)
      .innerJoin(payments, eq(payments.id, refunds.paymentId))
      .innerJoin(orders, eq(orders.id, payments.orderId))
      .innerJoin(users, eq(users.id, orders.userId))
      .where(unfinishedRefund)
      .orderBy(desc(refunds.createdAt))
      .limit(options.limit),
    db
      .select({ notice: providerNotices, userId: orders.userId, email: users.email })
      .from(providerNotices)
      .leftJoin(payments, eq(payments.id, providerNotices.paymentId))
      .leftJoin(orders, eq(orders.id, payments.orderId))
      .leftJoin(users, eq(users.id, orders.userId))
      .where(openNotice)
      .orderBy(desc(providerNotices.createdAt))
      .limit(options.limit),
    db
      .select()
      .from(mailOutbox)
      .where(recentFailedMail(now, options.mailDays))
      .orderBy(desc(mailOutbox.createdAt))
      .limit(options.limit),
    openDiscrepancies(db, options.limit),
  ]);
  const names = await nodeNames(
    db,
    discrepancies.map((discrepancy) => discrepancy.nodeId),
  );
  // A node removed meanwhile took its discrepancies with it.
  const traffic = discrepancies.flatMap((discrepancy) => {
    const nodeName = names.get(discrepancy.nodeId);
    return nodeName === undefined ? [] : [{ discrepancy, nodeName }];
  });
  return { unsettledPayments, refundPayments, notices, mail, traffic };
}

/** How many of each kind the attention queue holds (the dashboard shows their sum). */
export async function attentionCounts(db: Database, now: Date, mailDays: number) {
  const [[p], [r], [n], [m], traffic] = await Promise.all([
    db.select({ n: count() }).from(payments).where(unsettled),
    db
      .select({ n: count() })
      .from(refunds)
      .innerJoin(payments, eq(payments.id, refunds.paymentId))
      .where(unfinishedRefund),
    db.select({ n: count() }).from(providerNotices).where(openNotice),
    db.select({ n: count() }).from(mailOutbox).where(recentFailedMail(now, mailDays)),
    openDiscrepancyCount(db),
  ]);
  return {
    payments: p?.n ?? 0,
    refunds: r?.n ?? 0,
    notices: n?.n ?? 0,
    mail: m?.n ?? 0,
    traffic,
  };
}
