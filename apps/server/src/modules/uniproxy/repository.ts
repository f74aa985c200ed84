import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { deviceSlots } from '../../db/schema/index.ts';

// A list as one JSON parameter: 100,000 slots are one parameter, not 100,000.
const listed = (values: (string | number)[], type: 'uuid' | 'bigint') =>
  sql`(select value::${sql.raw(type)} from jsonb_array_elements_text(${JSON.stringify(values.map(String))}::jsonb))`;

/** The `number` of each of these slots (one query, however many). */
export async function slotNumbers(db: Database, ids: string[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: deviceSlots.id, number: deviceSlots.number })
    .from(deviceSlots)
    .where(sql`${deviceSlots.id} in ${listed(ids, 'uuid')}`);
  return new Map(rows.map((row) => [row.id, row.number]));
}

/** The slot of each of these numbers that still exists. */
export async function slotsByNumber(db: Database, numbers: number[]): Promise<Map<number, string>> {
  if (numbers.length === 0) return new Map();
  const rows = await db
    .select({ id: deviceSlots.id, number: deviceSlots.number })
    .from(deviceSlots)
    .where(sql`${deviceSlots.number} in ${listed(numbers, 'bigint')}`);
  return new Map(rows.map((row) => [row.number, row.id]));
}

/**
 * The next push's report sequence (`uniproxy_pushes`, negated): unique across instances, and never
 * one of the positive sequences the node's own agent numbers its reports with.
 */
export async function nextPushSequence(db: Database): Promise<number> {
  const result = await db.execute(sql`select nextval('uniproxy_pushes') as next`);
  // Both drivers (pg and PGlite) answer with `rows`; Drizzle's shared type cannot say so.
  const { rows } = result as unknown as { rows: { next: string | number }[] };
  return -Number(rows[0]?.next);
}
