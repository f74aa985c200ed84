import type { z } from 'zod';
import { toUnixSeconds } from '@skyway/shared/dates';
import { CURRENCY, DAY_SECONDS, type Period } from '@skyway/shared/plans';
import {
  formatRedeemCode,
  type RedeemGrant,
  REDEEM_TRIES_PER_ADDRESS_HOUR,
  REDEEM_WRONG_TRIES_PER_HOUR,
} from '@skyway/shared/redeem-codes';
import type {
  redeemBatchCreateRequest,
  redeemBatchSchema,
  redemptionListQuery,
  redemptionSchema,
} from '@skyway/shared/schemas/admin/redeem-codes';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../http/errors.ts';
import { inAccountTransaction } from '../access/access.ts';
import { type Actor, recordAudit } from '../audit/repository.ts';
import type { Counters } from '../limits/counters.ts';
import { newOrderId } from '../orders/order-ids.ts';
import { findPlan } from '../orders/plans-repository.ts';
import { insertOrder } from '../orders/repository.ts';
import { hashRedeemCode, newRedeemCodes } from './codes.ts';
import {
  batchRedemptions,
  batchWithUses,
  type BatchGrant,
  type BatchWithUses,
  findBatch,
  findCode,
  insertBatch,
  insertCodeHashes,
  revokeBatchRow,
  revokeCodeRow,
  takeCode,
} from './repository.ts';

const HOUR = 60 * 60;
/** The account's tries since its last success: past REDEEM_WRONG_TRIES_PER_HOUR, its redemption is locked. */
const wrongTriesKey = (userId: string) => `redeem:user:${userId}`;

export interface Redeemed {
  order_id: string;
  expire_user: number;
}

/**
 * Redeems a code for an account (PRODUCT.md section 9). Each try is counted before the code is looked
 * up, by address and by account, so parallel guesses cannot slip past; an account whose last 20 tries
 * within the hour were wrong is locked until the hour ends. Then, in one transaction holding the
 * account's row: the code is taken (one conditional update, so that of concurrent tries one wins),
 * the grant applied with its ledger row, and a paid order record of amount 0 made for "my orders".
 * An unknown, revoked or used code answers `redeem_code_invalid` alike, after the same one lookup.
 */
export async function redeemCode(
  deps: { db: Database; counters: Counters },
  request: { userId: string; code: string; ip: string; now: Date },
): Promise<Redeemed> {
  const { db, counters } = deps;
  const [byAddress, byAccount] = await Promise.all([
    counters.hit(`redeem:ip:${request.ip}`, HOUR),
    counters.hit(wrongTriesKey(request.userId), HOUR),
  ]);
  if (byAccount.count > REDEEM_WRONG_TRIES_PER_HOUR) {
    throw new AppError(429, 'redeem_locked', { retryAfter: byAccount.resetIn });
  }
  if (byAddress.count > REDEEM_TRIES_PER_ADDRESS_HOUR) {
    throw new AppError(429, 'too_many_requests', { retryAfter: byAddress.resetIn });
  }
  const codeHash = hashRedeemCode(request.code);
  const { now } = request;
  const redeemed = await inAccountTransaction(db, request.userId, now, async (account) => {
    const orderId = newOrderId(now);
    const grant = await takeGrant(account.tx, codeHash, { userId: request.userId, orderId, now });
    if (!grant) return undefined;
    const given =
      grant.kind === 'plan'
        ? {
            period: grant.period as Period | 'days',
            months: grant.months,
            days: grant.days,
            connections: grant.connections,
          }
        : {
            period: 'days' as const,
            months: 0,
            days: grant.days,
            connections: account.entitlement.connections,
          };
    await insertOrder(account.tx, {
      id: orderId,
      userId: request.userId,
      ...given,
      unitPrice: 0,
      amount: 0,
      currency: CURRENCY,
      payMethod: 'redeem_code',
      provider: 'redeem_code',
      status: 'paid',
      createdAt: now,
      latestPayAt: now,
      paidAt: now,
    });
    const expireAt =
      grant.kind === 'plan'
        ? await account.purchase(
            { id: orderId, days: grant.days, connections: grant.connections },
            'redeem_code',
          )
        : await account.addTime('redeem_code', grant.days * DAY_SECONDS, orderId);
    return { order_id: orderId, expire_user: toUnixSeconds(expireAt) };
  });
  if (!redeemed) throw new AppError(400, 'redeem_code_invalid', { field: 'code' });
  await counters.clear(wrongTriesKey(request.userId));
  return redeemed;
}

/** A code's grant in the terms of an order: a plan's period with its days as sold, or days. */
type TakenGrant =
  | { kind: 'plan'; period: Period; months: number; days: number; connections: number }
  | { kind: 'days'; days: number };

async function takeGrant(
  tx: Database,
  codeHash: string,
  taker: { userId: string; orderId: string; now: Date },
): Promise<TakenGrant | undefined> {
  const batch = await takeCode(tx, codeHash, taker);
  if (!batch) return undefined;
  const grant = grantOf(batch);
  if (grant.kind === 'days') return grant;
  const plan = await findPlan(tx, grant.period);
  if (!plan) throw new Error(`no plan for ${grant.period}`);
  return { ...grant, months: plan.months, days: plan.days };
}

export function grantOf(batch: Omit<BatchGrant, 'id'>): RedeemGrant {
  if (batch.grantKind === 'plan' && batch.period && batch.connections) {
    return { kind: 'plan', period: batch.period, connections: batch.connections };
  }
  return { kind: 'days', days: batch.days ?? 0 };
}

/** Codes inserted per statement while a batch is generated. */
const CHUNK = 5_000;

/**
 * A new batch of codes, in one transaction with its audit row: codes are made, hashed and inserted
 * a chunk at a time, and only the CSV of their readable form (about 25 bytes a code) is kept until
 * the reply, which is the one time they exist in clear. Neither the audit row nor a log has them.
 */
export async function createBatch(
  db: Database,
  actor: Actor,
  request: z.infer<typeof redeemBatchCreateRequest>,
  now: Date,
): Promise<{ batch: BatchWithUses; csv: string }> {
  const { grant } = request;
  const lines: string[] = ['code\r\n'];
  const batch = await db.transaction(async (tx) => {
    const row = await insertBatch(tx, {
      name: request.name,
      note: request.note,
      grantKind: grant.kind,
      period: grant.kind === 'plan' ? grant.period : null,
      connections: grant.kind === 'plan' ? grant.connections : null,
      days: grant.kind === 'days' ? grant.days : null,
      count: request.count,
      createdBy: actor.staffId,
      createdByEmail: actor.email,
      createdAt: now,
    });
    for (let done = 0; done < request.count; done += CHUNK) {
      const codes = newRedeemCodes(Math.min(CHUNK, request.count - done));
      await insertCodeHashes(tx, row.id, codes.map(hashRedeemCode));
      lines.push(codes.map((code) => `${formatRedeemCode(code)}\r\n`).join(''));
    }
    await recordAudit(
      tx,
      actor,
      {
        action: 'redeem.create_batch',
        targetType: 'redeem_batch',
        targetId: row.id,
        before: null,
        after: { name: row.name, note: row.note, count: row.count, grant },
      },
      now,
    );
    return row;
  });
  return { batch: { ...batch, redeemed: 0, revokedCodes: 0 }, csv: lines.join('') };
}

export function presentBatch(batch: BatchWithUses): z.infer<typeof redeemBatchSchema> {
  return {
    id: batch.id,
    name: batch.name,
    note: batch.note,
    grant: grantOf(batch),
    count: batch.count,
    redeemed: batch.redeemed,
    revoked: batch.revokedAt ? batch.count - batch.redeemed : batch.revokedCodes,
    created_by: batch.createdByEmail,
    created_at: batch.createdAt.toISOString(),
    revoked_at: batch.revokedAt?.toISOString() ?? null,
  };
}

export async function showBatch(db: Database, id: string): Promise<BatchWithUses> {
  const batch = await batchWithUses(db, id);
  if (!batch) throw new AppError(404, 'not_found');
  return batch;
}

export async function listRedemptions(
  db: Database,
  batchId: string,
  page: z.infer<typeof redemptionListQuery>,
): Promise<{ items: z.infer<typeof redemptionSchema>[]; total: number }> {
  if (!(await findBatch(db, batchId))) throw new AppError(404, 'not_found');
  const { rows, total } = await batchRedemptions(db, batchId, {
    limit: page.size,
    offset: (page.page - 1) * page.size,
  });
  return {
    items: rows.map((row) => ({
      id: row.orderId ?? '',
      user_id: row.userId ?? '',
      email: row.email,
      redeemed_at: (row.redeemedAt ?? new Date(0)).toISOString(),
    })),
    total,
  };
}

/** Revokes a batch: its unredeemed codes are refused from then on. Audited. */
export async function revokeBatch(db: Database, actor: Actor, id: string, now: Date): Promise<BatchWithUses> {
  await db.transaction(async (tx) => {
    const revoked = await revokeBatchRow(tx, id, now);
    if (!revoked) {
      throw (await findBatch(tx, id))
        ? new AppError(409, 'redeem_already_revoked')
        : new AppError(404, 'not_found');
    }
    await recordAudit(
      tx,
      actor,
      {
        action: 'redeem.revoke_batch',
        targetType: 'redeem_batch',
        targetId: id,
        before: { revoked_at: null },
        after: { revoked_at: now.toISOString() },
      },
      now,
    );
  });
  return showBatch(db, id);
}

/**
 * Revokes one code that staff typed, found by its hash. Unknown: 404; redeemed already: 409 with
 * its own reason; revoked already: 409. The audit row names the batch, never the code.
 */
export async function revokeCode(
  db: Database,
  actor: Actor,
  code: string,
  now: Date,
): Promise<{ batch_id: string }> {
  const codeHash = hashRedeemCode(code);
  return db.transaction(async (tx) => {
    const batchId = await revokeCodeRow(tx, codeHash, now);
    if (!batchId) {
      const found = await findCode(tx, codeHash);
      if (!found) throw new AppError(404, 'not_found', { field: 'code' });
      throw new AppError(409, found.redeemedAt ? 'redeem_code_used' : 'redeem_already_revoked', {
        field: 'code',
      });
    }
    await recordAudit(
      tx,
      actor,
      {
        action: 'redeem.revoke_code',
        targetType: 'redeem_batch',
        targetId: batchId,
        before: null,
        after: { codes_revoked: 1 },
      },
      now,
    );
    return { batch_id: batchId };
  });
}
