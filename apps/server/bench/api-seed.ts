import { type SQL, sql } from 'drizzle-orm';
import pg from 'pg';
import { type DatabaseHandle, openDatabase } from '../src/db/client.ts';
import { users } from '../src/db/schema/index.ts';
import { hashPassword } from '../src/lib/passwords.ts';
import { createSession } from '../src/modules/sessions/repository.ts';
import { onServer, withDatabase } from '../src/testing/server-databases.ts';

/** The password of every seeded account: they all share one precomputed argon2id hash of it. */
export const SEEDED_PASSWORD = 'benchmark password';
/** Invitees of the one inviter: page 500 of 10 is the middle of their list. */
const INVITEES = 10_000;

/** `bench-<n>@example.com`, n from 1 to the number of accounts: those that can sign in. */
export const seededEmail = (n: number) => `bench-${n}@example.com`;

export interface Seeded {
  accounts: number;
  invitees: number;
  /** A live session of the inviter, who also has as many orders as invitees. */
  inviterToken: string;
  seconds: number;
}

// Accounts are spread a few seconds apart over the past, newest first; each has one paid order.
// The inviter has INVITEES invited accounts (the newest ones), each with a reward, about half of
// them claimed, and as many orders of its own, so that its order list is as long as its list of
// invitees.
const paidOrders = (rows: SQL) => sql`
  insert into orders (id, user_id, period, months, days, connections, unit_price, amount, currency,
                      pay_method, provider, status, created_at, latest_pay_at, paid_at)
  select order_id, user_id, 'month', 1, 0, 1, 2500, 2500, 'CNY', 'alipay', 'sandbox', 'paid',
         created_at, created_at + interval '30 minutes', created_at + interval '1 minute'
  from ${rows}`;

async function seedRows(database: DatabaseHandle, accounts: number, passwordHash: string) {
  const invitees = Math.min(INVITEES, accounts);
  const { db } = database;
  const [inviter] = await db
    .insert(users)
    .values({
      email: 'bench-inviter@example.com',
      passwordHash,
      inviteCode: 'BENCHINV',
      createdAt: new Date(Date.now() - 2 * 365 * 24 * 3600_000),
      expireAt: new Date(Date.now() + 30 * 24 * 3600_000),
      connections: 2,
    })
    .returning({ id: users.id });
  if (!inviter) throw new Error('the inviter was not created');
  await db.execute(sql`
    with made as (
      insert into users (email, password_hash, invite_code, invited_by, created_at, last_login_at)
      select 'bench-' || i || '@example.com', ${passwordHash}, 'B' || lpad(to_hex(i), 7, '0'),
             case when i <= ${invitees} then ${inviter.id}::uuid end,
             now() - i * interval '5 seconds', now() - i * interval '3 seconds'
      from generate_series(1, ${accounts}) as i
      returning id, invite_code, invited_by, created_at
    ), rewards as (
      insert into invite_rewards (inviter_id, invitee_id, minutes, created_at, claimed_at)
      select invited_by, id, 60, created_at,
             case when random() < 0.5 then created_at + interval '1 day' end
      from made where invited_by is not null
    )
    ${paidOrders(sql`(select 'bench-' || invite_code as order_id, id as user_id, created_at from made) as made`)}`);
  await db.execute(
    paidOrders(sql`
      (select 'bench-inviter-' || i as order_id, ${inviter.id}::uuid as user_id,
              now() - i * interval '7 seconds' as created_at
       from generate_series(1, ${invitees}) as i) as own`),
  );
  await db.execute(sql`vacuum analyze`);
  return { invitees, inviterToken: await createSession(db, inviter.id) };
}

/** Seeds a migrated database of the product, on PostgreSQL or the embedded one. */
async function seed(database: DatabaseHandle, accounts: number): Promise<Seeded> {
  const started = performance.now();
  const passwordHash = await hashPassword(SEEDED_PASSWORD);
  const rows = await seedRows(database, accounts, passwordHash);
  return { accounts, ...rows, seconds: (performance.now() - started) / 1000 };
}

/** The benchmark's own database on the PostgreSQL server; nothing else on it is touched. */
export interface BenchDatabase {
  url: string;
  /** Runs SQL over a connection of its own (never one of the product's). */
  query<Row extends object>(text: string): Promise<Row[]>;
  drop(): Promise<void>;
}

/**
 * Creates `name` (dropping what an interrupted run of the same name left), migrates and seeds it.
 * The handle used to seed is closed before the product starts, so its pool does not stay open.
 */
export async function createBenchDatabase(
  adminUrl: string,
  name: string,
  accounts: number,
): Promise<BenchDatabase & { seeded: Seeded }> {
  await onServer(adminUrl, `drop database if exists ${name} with (force)`);
  await onServer(adminUrl, `create database ${name}`);
  const url = withDatabase(adminUrl, name);
  const own = new pg.Client({ connectionString: url });
  const drop = async () => {
    await own.end().catch(() => undefined);
    await onServer(adminUrl, `drop database if exists ${name} with (force)`);
  };
  try {
    const database = await openDatabase({ databaseUrl: url, dataDir: 'memory://' });
    let seeded: Seeded;
    try {
      await database.migrate();
      seeded = await seed(database, accounts);
    } finally {
      await database.close();
    }
    await own.connect();
    return {
      url,
      seeded,
      query: async <Row extends object>(text: string) => (await own.query<Row>(text)).rows,
      drop,
    };
  } catch (error) {
    await drop();
    throw error;
  }
}

/** The embedded database in `dataDir`, migrated and seeded, then closed for the product to open. */
export async function seedEmbedded(dataDir: string, accounts: number): Promise<Seeded> {
  const database = await openDatabase({ dataDir });
  try {
    await database.migrate();
    return await seed(database, accounts);
  } finally {
    await database.close();
  }
}
