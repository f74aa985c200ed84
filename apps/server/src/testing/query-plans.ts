import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { Database } from '../db/client.ts';
import * as schema from '../db/schema/index.ts';

/** A node of PostgreSQL's JSON plan. */
export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

/** The node and every node under it. */
export const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

/** As a failure names it: `Index Scan orders orders_user_idx`. */
export const describeNode = (node: PlanNode) =>
  [node['Node Type'], node['Relation Name'], node['Index Name']].filter(Boolean).join(' ');

/**
 * A database on a scratch PostgreSQL server that records the statements sent through it, so a test
 * can read the plans of a repository's own statements as Drizzle sends them.
 */
export function planRecordingDatabase(url: string) {
  const issued: { query: string; params: unknown[] }[] = [];
  const pool = new pg.Pool({ connectionString: url });
  // The scratch database is dropped with its connections at the end: a client still closing then is
  // told so, and the pool passes an idle client's error on to its own listeners.
  pool.on('connect', (client) => client.on('error', () => undefined));
  pool.on('error', () => undefined);
  const logger = { logQuery: (query: string, params: unknown[]) => void issued.push({ query, params }) };
  const db = drizzle(pool, { schema, logger }) as unknown as Database;

  /** Runs the work, and returns the plan of every statement it sent (planned again, not run). */
  async function plansOf(work: (db: Database) => Promise<unknown>): Promise<PlanNode[]> {
    issued.length = 0;
    await work(db);
    if (issued.length === 0) throw new Error('the work sent no statement');
    const plans: PlanNode[] = [];
    for (const { query, params } of issued) {
      const { rows } = await pool.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
        `explain (format json) ${query}`,
        params,
      );
      plans.push(...rows.map((row) => row['QUERY PLAN'][0].Plan));
    }
    return plans;
  }

  return { db, pool, plansOf };
}
