import { and, count, desc, eq, gt, inArray, isNotNull, lte, ne, sql } from 'drizzle-orm';
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
  checkout: { ref: string; url: string; usdtAmount?: string },
): Promise<void> {
  await db
    .update(orders)
    .set({ providerRef: checkout.ref, checkoutUrl: checkout.url, usdtAmount: checkout.usdtAmount ?? null })
    .where(eq(orders.id, orderId));
}

/**
 * How long one attempt at closing a checkout at the provider holds it: longer than one provider call
 * with its retries (some 50 s for Stripe), so that no other instance makes the same attempt
 * meanwhile. Once it has passed, an attempt that failed is made again by the orders job.
 */
const CHECKOUT_CLOSE_LEASE_MS = 2 * 60_000;

const leaseEnd = (now: Date) => new Date(now.getTime() + CHECKOUT_CLOSE_LEASE_MS);

/** An order being closed has its checkout to close, if it has one; the caller's attempt holds it first. */
const checkoutCloseDue = (now: Date) =>
  sql`case when ${orders.providerRef} is not null then ${leaseEnd(now).toISOString()}::timestamptz end`;

/**
 * Closes a user's unpaid orders, and returns them: past their deadline they expired, within it they
 * are cancelled. Those with a checkout are due for closing it at the provider.
 */
export async function closeUnpaidOrders(db: Database, userId: string, now: Date): Promise<OrderRow[]> {
  return db
    .update(orders)
    .set({
      status: sql`case when ${orders.latestPayAt} <= ${now.toISOString()} then 'expired' else 'cancelled' end`,
      closedAt: now,
      checkoutCloseDueAt: checkoutCloseDue(now),
    })
    .where(and(eq(orders.userId, userId), eq(orders.status, 'unpaid')))
    .returning();
}

/** Cancels one order of a user if it can still be paid, and returns it; undefined otherwise. */
export async function cancelPayableOrder(
  db: Database,
  userId: string,
  orderId: string,
  now: Date,
): Promise<OrderRow | undefined> {
  const [row] = await db
    .update(orders)
    .set({ status: 'cancelled', closedAt: now, checkoutCloseDueAt: checkoutCloseDue(now) })
    .where(
      and(
        eq(orders.id, orderId),
        eq(orders.userId, userId),
        eq(orders.status, 'unpaid'),
        sql`${orders.latestPayAt} > ${now.toISOString()}`,
      ),
    )
    .returning();
  return row;
}

/**
 * Takes the next order of this provider whose checkout is due for closing, holding it for one
 * attempt (SKIP LOCKED and the lease: instances running the job at once each take another order).
 */
export async function claimDueCheckout(
  db: Database,
  provider: string,
  now: Date,
): Promise<OrderRow | undefined> {
  const due = db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.provider, provider), lte(orders.checkoutCloseDueAt, now)))
    .orderBy(orders.checkoutCloseDueAt)
    .limit(1)
    .for('update', { skipLocked: true });
  const [row] = await db
    .update(orders)
    .set({ checkoutCloseDueAt: leaseEnd(now) })
    .where(inArray(orders.id, due))
    .returning();
  return row;
}

/** The provider has closed the order's checkout: nothing is left to do for it. */
export async function markCheckoutClosed(db: Database, orderId: string): Promise<void> {
  await db.update(orders).set({ checkoutCloseDueAt: null }).where(eq(orders.id, orderId));
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

/** The account an order belongs to, if the order exists. */
export async function orderOwner(db: Database, orderId: string): Promise<string | undefined> {
  const [row] = await db.select({ userId: orders.userId }).from(orders).where(eq(orders.id, orderId));
  return row?.userId;
}

/** The order, locked until the transaction ends (after its owner's row: see access.ts). */
export async function lockOrder(db: Database, orderId: string): Promise<OrderRow | undefined> {
  const [row] = await db.select().from(orders).where(eq(orders.id, orderId)).for('update');
  return row;
}

/** The order is paid: whatever it was before, money taken for it is never lost. */
export async function markOrderPaid(db: Database, orderId: string, now: Date): Promise<void> {
  await db.update(orders).set({ status: 'paid', paidAt: now }).where(eq(orders.id, orderId));
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

/** The order when it was made through `provider` (a gateway's notify names one by its id). */
export async function findProviderOrder(
  db: Database,
  provider: string,
  orderId: string,
): Promise<OrderRow | undefined> {
  const [row] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.provider, provider)))
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

const newestOrderFirst = [desc(orders.createdAt), desc(orders.id)];

/**
 * A page of a user's orders, newest first, and how many there are. The page's ids and the count are
 * read off `orders_user_idx` alone, so a deep page skips index entries, not rows; only the page's own
 * orders are read.
 */
export async function userOrdersPage(db: Database, userId: string, page: { limit: number; offset: number }) {
  const pageIds = db
    .select({ id: orders.id })
    .from(orders)
    .where(eq(orders.userId, userId))
    .orderBy(...newestOrderFirst)
    .limit(page.limit)
    .offset(page.offset);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(orders)
      .where(inArray(orders.id, pageIds))
      .orderBy(...newestOrderFirst),
    db.select({ n: count() }).from(orders).where(eq(orders.userId, userId)),
  ]);
  return { rows, total: total?.n ?? 0 };
}

/**
 * The orders of these providers that no payment has reached yet and that may still be paid there: made
 * in the last day, their deadline not more than `grace` behind (a cancelled or replaced order's page
 * may still be open at the gateway). Newest first, at most `limit`.
 */
export async function ordersAwaitingPayment(
  db: Database,
  providers: string[],
  now: Date,
  options: { graceMs: number; limit: number },
): Promise<OrderRow[]> {
  if (providers.length === 0) return [];
  return db
    .select()
    .from(orders)
    .where(
      and(
        inArray(orders.provider, providers),
        ne(orders.status, 'paid'),
        isNotNull(orders.providerRef),
        gt(orders.createdAt, new Date(now.getTime() - 86_400_000)),
        gt(orders.latestPayAt, new Date(now.getTime() - options.graceMs)),
      ),
    )
    .orderBy(desc(orders.createdAt))
    .limit(options.limit);
}
