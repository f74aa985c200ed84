import { and, asc, desc, eq, gt, ilike, or, type SQL, sql } from 'drizzle-orm';
import type { CouponStatus } from '@skyway/shared/coupons';
import { COUPON_LIST_MAX, type CouponListQuery } from '@skyway/shared/schemas/admin/coupons';
import type { Database } from '../../db/client.ts';
import { type CouponRow, coupons, orders } from '../../db/schema/index.ts';

export type NewCoupon = typeof coupons.$inferInsert;

/** The coupon of a code (in capitals), locked until the transaction ends when `lock`. */
export async function findCouponByCode(
  db: Database,
  code: string,
  options: { lock?: boolean } = {},
): Promise<CouponRow | undefined> {
  const query = db
    .select()
    .from(coupons)
    .where(sql`upper(${coupons.code}) = ${code}`)
    .limit(1);
  const [row] = await (options.lock ? query.for('update') : query);
  return row;
}

/**
 * A coupon's uses: orders that carry it and are paid, or unpaid and still payable (one cancelled,
 * replaced or past its deadline has given its use back). `userId`: that account's alone.
 */
export async function countCouponUses(
  db: Database,
  couponId: string,
  now: Date,
  userId?: string,
): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(orders)
    .where(
      and(
        eq(orders.couponId, couponId),
        userId ? eq(orders.userId, userId) : undefined,
        or(eq(orders.status, 'paid'), and(eq(orders.status, 'unpaid'), gt(orders.latestPayAt, now))),
      ),
    );
  return row?.n ?? 0;
}

/** Whether the account has bought before: a paid order of any kind. */
export async function hasPaidOrder(db: Database, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.userId, userId), eq(orders.status, 'paid')))
    .limit(1);
  return row !== undefined;
}

/** The new coupon; undefined when another has its code. */
export async function insertCoupon(db: Database, values: NewCoupon): Promise<CouponRow | undefined> {
  const [row] = await db.insert(coupons).values(values).onConflictDoNothing().returning();
  return row;
}

export async function lockCoupon(db: Database, id: string): Promise<CouponRow | undefined> {
  const [row] = await db.select().from(coupons).where(eq(coupons.id, id)).for('update');
  return row;
}

export async function updateCoupon(db: Database, id: string, values: Partial<NewCoupon>): Promise<CouponRow> {
  const [row] = await db.update(coupons).set(values).where(eq(coupons.id, id)).returning();
  if (!row) throw new Error('update returned no row');
  return row;
}

export interface CouponFigures {
  usesHeld: number;
  usesPaid: number;
  discountTotal: number;
}

/** A coupon's figures: uses held by payable orders, paid orders, and the fen taken off those. */
const figures = (now: Date) => {
  const payable = sql`${orders.status} = 'unpaid' and ${orders.latestPayAt} > ${now.toISOString()}`;
  const paid = sql`${orders.status} = 'paid'`;
  // Qualified by hand: inside the subquery a bare "id" would be the order's.
  const couponId = sql.raw('"coupons"."id"');
  const of = (expression: SQL) =>
    sql<number>`(select ${expression} from ${orders} where ${orders.couponId} = ${couponId})`;
  return {
    usesHeld: of(sql`count(*) filter (where ${payable})::int`),
    usesPaid: of(sql`count(*) filter (where ${paid})::int`),
    discountTotal: of(sql`coalesce(sum(${orders.discount}) filter (where ${paid}), 0)::int`),
  };
};

/** The coupons that match, with their figures, sorted; at most COUPON_LIST_MAX (and whether there are more). */
export async function listCoupons(
  db: Database,
  query: CouponListQuery,
  now: Date,
): Promise<{ rows: (CouponRow & CouponFigures)[]; more: boolean }> {
  const shown = figures(now);
  const sortColumn = {
    created_at: coupons.createdAt,
    code: coupons.code,
    uses: sql`(${shown.usesHeld} + ${shown.usesPaid})`,
    discount_total: shown.discountTotal,
  }[query.sort];
  const direction = query.order === 'asc' ? asc : desc;
  const rows = await db
    .select({ coupon: coupons, ...shown })
    .from(coupons)
    .where(
      and(
        query.status ? eq(coupons.status, query.status as CouponStatus) : undefined,
        query.code ? ilike(coupons.code, `%${query.code.replace(/[\\%_]/g, '\\$&')}%`) : undefined,
      ),
    )
    .orderBy(direction(sortColumn), direction(coupons.id))
    .limit(COUPON_LIST_MAX + 1);
  return {
    rows: rows.slice(0, COUPON_LIST_MAX).map((row) => ({
      ...row.coupon,
      usesHeld: row.usesHeld,
      usesPaid: row.usesPaid,
      discountTotal: row.discountTotal,
    })),
    more: rows.length > COUPON_LIST_MAX,
  };
}

/** One coupon with its figures. */
export async function couponWithFigures(
  db: Database,
  id: string,
  now: Date,
): Promise<(CouponRow & CouponFigures) | undefined> {
  const shown = figures(now);
  const [row] = await db
    .select({ coupon: coupons, ...shown })
    .from(coupons)
    .where(eq(coupons.id, id));
  return (
    row && { ...row.coupon, usesHeld: row.usesHeld, usesPaid: row.usesPaid, discountTotal: row.discountTotal }
  );
}
