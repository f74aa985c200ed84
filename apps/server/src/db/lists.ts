import { type AnyColumn, asc, count, desc, type Subquery } from 'drizzle-orm';
import { COUNT_CAP, type SortOrder } from '@skyway/shared/schemas/admin/common';
import type { Database } from './client.ts';

/** A list's `order by`: its columns (time, then id) newest first, or oldest first when turned. */
export const inOrder = (order: SortOrder, ...columns: AnyColumn[]) =>
  columns.map((column) => (order === 'asc' ? asc(column) : desc(column)));

/**
 * How many rows a long list matches, counted up to COUNT_CAP only (`capped` says there are more):
 * `matching(limit)` is the list's own query in the list's own order, so its index ends the count
 * early when matches are many. A search for `@gmail` at a million accounts must not count them all.
 */
export async function countUpToCap(
  db: Database,
  matching: (limit: number) => Subquery,
): Promise<{ total: number; capped: boolean }> {
  const [row] = await db.select({ n: count() }).from(matching(COUNT_CAP + 1));
  const n = row?.n ?? 0;
  return { total: Math.min(n, COUNT_CAP), capped: n > COUNT_CAP };
}
