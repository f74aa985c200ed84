import { eq } from 'drizzle-orm';
import { PERIOD_NAMES, type Period, type Plan } from '@skyway/shared/plans';
import type { Database } from '../../db/client.ts';
import { plans } from '../../db/schema/index.ts';

const byPeriodOrder = (a: Plan, b: Plan) => PERIOD_NAMES.indexOf(a.period) - PERIOD_NAMES.indexOf(b.period);

/** The plans on sale, month first. */
export async function readPlans(db: Database): Promise<Plan[]> {
  const rows = await db.select().from(plans);
  return rows
    .filter((row): row is typeof row & { period: Period } =>
      (PERIOD_NAMES as readonly string[]).includes(row.period),
    )
    .map((row) => ({ period: row.period, months: row.months, days: row.days, unit_price: row.unitPrice }))
    .sort(byPeriodOrder);
}

export async function findPlan(db: Database, period: Period): Promise<Plan | undefined> {
  return (await readPlans(db)).find((plan) => plan.period === period);
}

/** Sets a period's unit price (fen per connection); orders already created keep their own price. */
export async function setUnitPrice(db: Database, period: Period, unitPrice: number): Promise<void> {
  if (!Number.isSafeInteger(unitPrice) || unitPrice < 1 || unitPrice > 10_000_000) {
    throw new Error(`unit price of ${period}: expected a whole number of fen from 1 to 10000000`);
  }
  await db.update(plans).set({ unitPrice, updatedAt: new Date() }).where(eq(plans.period, period));
}
