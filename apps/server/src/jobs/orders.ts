import { and, isNotNull, lte, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { users } from '../db/schema/index.ts';
import { expireOverdueOrders } from '../modules/orders/repository.ts';
import { recordJobRun } from './job-runs.ts';

export const ORDERS_JOB = 'orders';

export interface OrdersJobResult {
  /** Unpaid orders past their deadline, now expired. */
  expired: number;
  /** Downgrades whose time came, now the accounts' connections. */
  downgraded: number;
}

/** Accounts whose bought downgrade is due take its connections; one statement, safe on several instances. */
async function applyDueDowngrades(db: Database, now: Date): Promise<number> {
  const rows = await db
    .update(users)
    .set({ connections: sql`${users.pendingConnections}`, pendingConnections: null, pendingFrom: null })
    .where(and(isNotNull(users.pendingConnections), lte(users.pendingFrom, now)))
    .returning({ id: users.id });
  return rows.length;
}

/**
 * Keeps stored order and connection states true over time. The calls already read an overdue order
 * as expired and a due downgrade as applied; this writes it down. Each step is a single statement,
 * so several instances may run it at once.
 */
export async function runOrdersJob(db: Database, now: Date): Promise<OrdersJobResult> {
  const startedMs = performance.now();
  const result = {
    expired: await expireOverdueOrders(db, now),
    downgraded: await applyDueDowngrades(db, now),
  };
  const finishedAt = new Date(now.getTime() + (performance.now() - startedMs));
  await recordJobRun(db, { name: ORDERS_JOB, startedAt: now, finishedAt, result });
  return result;
}
