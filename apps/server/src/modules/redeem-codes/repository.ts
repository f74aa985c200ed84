import { and, asc, count, desc, eq, ilike, isNotNull, isNull, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { redeemBatchListQuery } from '@skyway/shared/schemas/admin/redeem-codes';
import type { Database } from '../../db/client.ts';
import { redeemBatches, type RedeemBatchRow, redeemCodes, users } from '../../db/schema/index.ts';

export type NewRedeemBatch = typeof redeemBatches.$inferInsert;

export async function insertBatch(db: Database, values: NewRedeemBatch): Promise<RedeemBatchRow> {
  const [row] = await db.insert(redeemBatches).values(values).returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}

/**
 * A chunk of a batch's codes, by their hashes: one statement with the hashes as one text parameter
 * (hex has no commas), which leaves far less garbage than a row object and two parameters per code.
 */
export async function insertCodeHashes(db: Database, batchId: string, hashes: string[]): Promise<void> {
  await db.execute(sql`
    insert into redeem_codes (code_hash, batch_id)
    select unnest(string_to_array(${hashes.join(',')}, ',')), ${batchId}::uuid`);
}

/** What a batch's codes give, as `takeCode` reads it off the batch. */
export type BatchGrant = Pick<RedeemBatchRow, 'id' | 'grantKind' | 'period' | 'connections' | 'days'>;

/**
 * Takes a code for an account in one statement, found by its hash (the primary key): only while it
 * is neither redeemed nor revoked and its batch is not revoked. Of concurrent tries of one code the
 * first to update the row takes it; the others, re-reading the row once it is committed, match
 * nothing. Unknown, revoked and used codes all cost this one indexed lookup and answer undefined.
 */
export async function takeCode(
  db: Database,
  codeHash: string,
  taker: { userId: string; orderId: string; now: Date },
): Promise<BatchGrant | undefined> {
  const [row] = await db
    .update(redeemCodes)
    .set({ redeemedBy: taker.userId, redeemedAt: taker.now, orderId: taker.orderId })
    .from(redeemBatches)
    .where(
      and(
        eq(redeemCodes.codeHash, codeHash),
        isNull(redeemCodes.redeemedAt),
        isNull(redeemCodes.revokedAt),
        eq(redeemBatches.id, redeemCodes.batchId),
        isNull(redeemBatches.revokedAt),
      ),
    )
    .returning({
      id: redeemBatches.id,
      grantKind: redeemBatches.grantKind,
      period: redeemBatches.period,
      connections: redeemBatches.connections,
      days: redeemBatches.days,
    });
  return row;
}

export async function findBatch(db: Database, id: string): Promise<RedeemBatchRow | undefined> {
  const [row] = await db.select().from(redeemBatches).where(eq(redeemBatches.id, id));
  return row;
}

/** Revokes a batch that is not revoked yet; undefined when there is none such. */
export async function revokeBatchRow(
  db: Database,
  id: string,
  now: Date,
): Promise<RedeemBatchRow | undefined> {
  const [row] = await db
    .update(redeemBatches)
    .set({ revokedAt: now })
    .where(and(eq(redeemBatches.id, id), isNull(redeemBatches.revokedAt)))
    .returning();
  return row;
}

/** A code by its hash, as staff revoking it need to know it: its batch, whether used or revoked. */
export async function findCode(db: Database, codeHash: string) {
  const [row] = await db
    .select({
      batchId: redeemCodes.batchId,
      redeemedAt: redeemCodes.redeemedAt,
      revokedAt: redeemCodes.revokedAt,
    })
    .from(redeemCodes)
    .where(eq(redeemCodes.codeHash, codeHash));
  return row;
}

/** Revokes one code if it is neither redeemed nor revoked; its batch id, or undefined. */
export async function revokeCodeRow(db: Database, codeHash: string, now: Date): Promise<string | undefined> {
  const [row] = await db
    .update(redeemCodes)
    .set({ revokedAt: now })
    .where(
      and(eq(redeemCodes.codeHash, codeHash), isNull(redeemCodes.redeemedAt), isNull(redeemCodes.revokedAt)),
    )
    .returning({ batchId: redeemCodes.batchId });
  return row?.batchId;
}

// A batch's uses, read off the partial indexes of its redeemed and revoked codes.
const redeemedCount = sql<number>`(
  select count(*) from redeem_codes c where c.batch_id = redeem_batches.id and c.redeemed_at is not null
)`.mapWith(Number);
const revokedCount = sql<number>`(
  select count(*) from redeem_codes c where c.batch_id = redeem_batches.id and c.revoked_at is not null
)`.mapWith(Number);

export type BatchWithUses = RedeemBatchRow & { redeemed: number; revokedCodes: number };

const likeEscaped = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A page of the batches, filtered and sorted, with their uses. Batches are few (one per sale). */
export async function listBatches(
  db: Database,
  query: z.infer<typeof redeemBatchListQuery>,
): Promise<{ rows: BatchWithUses[]; total: number }> {
  const conditions: SQL[] = [];
  if (query.state === 'active') conditions.push(isNull(redeemBatches.revokedAt));
  if (query.state === 'revoked') conditions.push(isNotNull(redeemBatches.revokedAt));
  if (query.q) conditions.push(ilike(redeemBatches.name, `%${likeEscaped(query.q)}%`));
  const where = conditions.length ? and(...conditions) : undefined;
  const direction = query.order === 'asc' ? asc : desc;
  const sortBy = {
    created_at: redeemBatches.createdAt,
    name: redeemBatches.name,
    count: redeemBatches.count,
    redeemed: redeemedCount,
  }[query.sort];
  const [rows, [total]] = await Promise.all([
    db
      .select({ batch: redeemBatches, redeemed: redeemedCount, revokedCodes: revokedCount })
      .from(redeemBatches)
      .where(where)
      .orderBy(direction(sortBy), direction(redeemBatches.id))
      .limit(query.size)
      .offset((query.page - 1) * query.size),
    db.select({ n: count() }).from(redeemBatches).where(where),
  ]);
  return {
    rows: rows.map((row) => ({ ...row.batch, redeemed: row.redeemed, revokedCodes: row.revokedCodes })),
    total: total?.n ?? 0,
  };
}

/** One batch with its uses. */
export async function batchWithUses(db: Database, id: string): Promise<BatchWithUses | undefined> {
  const [row] = await db
    .select({ batch: redeemBatches, redeemed: redeemedCount, revokedCodes: revokedCount })
    .from(redeemBatches)
    .where(eq(redeemBatches.id, id));
  return row && { ...row.batch, redeemed: row.redeemed, revokedCodes: row.revokedCodes };
}

/** A page of a batch's redemptions, newest first: who (the account) and when, with the order record. */
export async function batchRedemptions(
  db: Database,
  batchId: string,
  page: { limit: number; offset: number },
) {
  const redeemed = and(eq(redeemCodes.batchId, batchId), isNotNull(redeemCodes.redeemedAt));
  const [rows, [total]] = await Promise.all([
    db
      .select({
        userId: redeemCodes.redeemedBy,
        email: users.email,
        orderId: redeemCodes.orderId,
        redeemedAt: redeemCodes.redeemedAt,
      })
      .from(redeemCodes)
      .innerJoin(users, eq(users.id, redeemCodes.redeemedBy))
      .where(redeemed)
      .orderBy(desc(redeemCodes.redeemedAt))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(redeemCodes).where(redeemed),
  ]);
  return { rows, total: total?.n ?? 0 };
}
