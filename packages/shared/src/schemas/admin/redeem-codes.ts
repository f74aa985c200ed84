import { z } from 'zod';
import { PERIOD_NAMES } from '../../plans.ts';
import { REDEEM_BATCH_MAX, REDEEM_DAYS_MAX } from '../../redeem-codes.ts';
import { isoTime, SORT_ORDERS } from './common.ts';

/** What a batch's codes give: a purchase's period × connections, or days at the account's connections. */
export const redeemGrantSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('plan'),
    period: z.enum(PERIOD_NAMES),
    connections: z.number().int().min(1).max(1000),
  }),
  z.object({ kind: z.literal('days'), days: z.number().int().min(1).max(REDEEM_DAYS_MAX) }),
]);

/** A new batch: its name and note for staff, how many codes, and what each gives. */
export const redeemBatchCreateRequest = z.object({
  name: z.string().trim().min(1).max(80),
  note: z.string().trim().max(500).default(''),
  count: z.number().int().min(1).max(REDEEM_BATCH_MAX),
  grant: redeemGrantSchema,
});

export const REDEEM_BATCH_STATES = ['active', 'revoked'] as const;
export const REDEEM_BATCH_SORTS = ['created_at', 'name', 'count', 'redeemed'] as const;

/** The batches list: by state, by a part of the name, sorted by a column. */
export const redeemBatchListQuery = z.object({
  state: z.enum(REDEEM_BATCH_STATES).optional(),
  q: z.string().trim().max(80).optional(),
  sort: z.enum(REDEEM_BATCH_SORTS).default('created_at'),
  order: z.enum(SORT_ORDERS).default('desc'),
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(100).default(20),
});

/** A batch as the back office shows it, with its uses. */
export const redeemBatchSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  note: z.string(),
  grant: redeemGrantSchema,
  /** Codes in the batch, those redeemed, and those revoked one by one (a revoked batch: all unredeemed). */
  count: z.number().int(),
  redeemed: z.number().int(),
  revoked: z.number().int(),
  created_by: z.string(),
  created_at: isoTime,
  revoked_at: isoTime.nullable(),
});

export const redeemBatchListSchema = z.object({
  items: z.array(redeemBatchSchema),
  total: z.number().int(),
});

/** One redemption of a batch: `id` the order record it made, by whom (the account) and when. */
export const redemptionSchema = z.object({
  id: z.string(),
  user_id: z.uuid(),
  email: z.string(),
  redeemed_at: isoTime,
});

export const redemptionListQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(100).default(20),
});

export const redemptionListSchema = z.object({
  items: z.array(redemptionSchema),
  total: z.number().int(),
});

/** A single code to revoke, as staff typed it (looked up by its hash, never kept). */
export const redeemCodeRevokeRequest = z.object({ code: z.string().trim().min(1).max(64) });

/** What revoking a single code found: the batch it belonged to. */
export const redeemCodeRevokedSchema = z.object({ batch_id: z.uuid() });
