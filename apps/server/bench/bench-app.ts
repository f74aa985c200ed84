import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { type DatabaseHandle, openDatabase } from '../src/db/client.ts';

/** The middle value of a set of figures (the mean of the two middle ones for an even count). */
export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

/**
 * The real app for a benchmark: on the embedded database, or on PostgreSQL with DATABASE_URL; no
 * scheduled job, no call ceiling, no logs, so that only the measured requests run.
 */
export async function benchApp(
  env: Record<string, string> = {},
): Promise<{ app: FastifyInstance; database: DatabaseHandle }> {
  const database = await openDatabase({
    databaseUrl: process.env.DATABASE_URL || undefined,
    dataDir: 'memory://',
  });
  await database.migrate();
  const app = await buildApp({
    config: loadConfig({
      NODE_ENV: 'test',
      WEB_DIST_DIR: '/nonexistent',
      ADMIN_DIST_DIR: '/nonexistent',
      SUBSCRIPTION_KEY: 'bench-subscription-key-0123456789abcdef',
      RATE_LIMIT_PER_MINUTE: '100000',
      INACTIVE_ACCOUNTS_EVERY_MINUTES: '0',
      ORDERS_EVERY_MINUTES: '0',
      MAIL_EVERY_SECONDS: '0',
      DASHBOARD_EVERY_MINUTES: '0',
      ...env,
    }),
    database,
    logger: false,
  });
  return { app, database };
}
