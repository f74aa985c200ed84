import { and, count, desc, eq, lte, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { type OrderRow, orders } from '../../db/schema/index.ts';

export type NewOrder = typeof orders.$inferInsert;

export async function insertOrder(db: Database, values: NewOrder): Promise<OrderRow> {
  const [row] = await db.insert(orders).values(values).returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}

export async function attachCheckout(
  db: Database,
  orderId: string,
  checkout: { ref: string; url: string },
): Promise<void> {
  await db
    .update(orders)
    .set({ providerRef: checkout.ref, checkoutUrl: checkout.url })
    .where(eq(orders.id, orderId));
}

/** Closes a user's unpaid orders: past their deadline they expired, within it they are cancelled. */
export async function closeUnpaidOrders(db: Database, userId: string, now: Date): Promise<void> {
  await db
    .update(orders)
    .set({
      status: sql`case when ${orders.latestPayAt} <= ${now.toISOString()} then 'expired' else 'cancelled' end`,
      closedAt: now,
    })
    .where(and(eq(orders.userId, userId), eq(orders.status, 'unpaid')));
}

/** Cancels one order of a user if it can still be paid; false otherwise. */
export async function cancelPayableOrder(
  db: Database,
  userId: string,
  orderId: string,
  now: Date,
): Promise<boolean> {
  const rows = await db
    .update(orders)
    .set({ status: 'cancelled', closedAt: now })
    .where(
      and(
        eq(orders.id, orderId),
        eq(orders.userId, userId),
        eq(orders.status, 'unpaid'),
        sql`${orders.latestPayAt} > ${now.toISOString()}`,
      ),
    )
    .returning({ id: orders.id });
  return rows.length === 1;
}

/** Every unpaid order past its deadline becomes expired; one statement, safe on several instances. */
export async function expireOverdueOrders(db: Database, now: Date): Promise<number> {
  const rows = await db
    .update(orders)
    .set({ status: 'expired', closedAt: now })
    .where(and(eq(orders.status, 'unpaid'), lte(orders.latestPayAt, now)))
    .returning({ id: orders.id });
  return rows.length;
}

export async function findUserOrder(
  db: Database,
  userId: string,
  orderId: string,
): Promise<OrderRow | undefined> {
  const [row] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.userId, userId)))
    .limit(1);
  return row;
}

export async function findOrderByCheckout(
  db: Database,
  provider: string,
  ref: string,
): Promise<OrderRow | undefined> {
  const [row] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.provider, provider), eq(orders.providerRef, ref)))
    .limit(1);
  return row;
}

export async function userOrdersPage(db: Database, userId: string, page: { limit: number; offset: number }) {
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(orders)
      .where(eq(orders.userId, userId))
      .orderBy(desc(orders.createdAt), desc(orders.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(orders).where(eq(orders.userId, userId)),
  ]);
  return { rows, total: total?.n ?? 0 };
}
