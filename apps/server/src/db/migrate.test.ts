import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createServerDatabase, openTestDatabase, testDatabaseKind } from '../testing/test-database.ts';
import { openDatabase } from './client.ts';
import { migrateServer } from './migrate.ts';

const journal = JSON.parse(
  readFileSync(new URL('./migrations/meta/_journal.json', import.meta.url), 'utf8'),
) as { entries: unknown[] };

// Both drivers answer a raw query with { rows }.
const rowsOf = async <T>(result: Promise<unknown>) => ((await result) as { rows: T[] }).rows;

describe('migrations', () => {
  it('are idempotent: migrating an up-to-date database changes nothing', async () => {
    const handle = await openTestDatabase();
    await handle.migrate();
    const tables = await rowsOf<{ table_name: string }>(
      handle.db.execute(
        sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
      ),
    );
    expect(tables.map((row) => row.table_name)).toEqual([
      'alert_incidents',
      'app_store_subscriptions',
      'app_store_transactions',
      'audit_log',
      'coupons',
      'dashboard_hours',
      'dashboard_subscribers',
      'device_slots',
      'email_codes',
      'expiry_ledger',
      'expiry_reminders',
      'gateways',
      'help_articles',
      'inbounds',
      'invite_rewards',
      'job_run_log',
      'job_runs',
      'mail_outbox',
      'node_refusals',
      'node_reports',
      'nodes',
      'notice_reads',
      'notices',
      'orders',
      'payment_events',
      'payments',
      'plans',
      'provider_notices',
      'redeem_batches',
      'redeem_codes',
      'refunds',
      'saved_replies',
      'sessions',
      'settings',
      'slot_addresses',
      'staff',
      'staff_alert_preferences',
      'staff_recovery_codes',
      'staff_sessions',
      'staff_setup_tokens',
      'subscription_fetches',
      'telegram_bind_tokens',
      'telegram_bot',
      'telegram_links',
      'telegram_outbox',
      'telegram_staff_links',
      'ticket_attachments',
      'ticket_messages',
      'tickets',
      'traffic_discrepancies',
      'traffic_hourly',
      'trial_claims',
      'users',
    ]);
    await handle.close();
  });

  it.runIf(testDatabaseKind === 'postgres')(
    'let several instances start at once on one database',
    async () => {
      const created = await createServerDatabase();
      try {
        await Promise.all([1, 2, 3, 4].map(() => migrateServer(created.url)));
        const handle = await openDatabase({ databaseUrl: created.url, dataDir: 'memory://' });
        const applied = await rowsOf<{ count: string }>(
          handle.db.execute(sql`select count(*)::text as count from drizzle.__drizzle_migrations`),
        );
        // Each migration once, however many instances ran them.
        expect(applied[0]?.count).toBe(String(journal.entries.length));
        await handle.close();
      } finally {
        await created.drop();
      }
    },
  );
});
