import type { z } from 'zod';
import type {
  redeemBatchCreateRequest,
  redeemBatchSchema,
  redeemCodeRevokedSchema,
  redemptionSchema,
} from '@skyway/shared/schemas/admin/redeem-codes';
import { REDEEM_BATCH_SORTS } from '@skyway/shared/schemas/admin/redeem-codes';
import { api } from '../../../lib/api-client.ts';
import { usePageList } from '../../../lib/use-page-list.ts';

export type RedeemBatch = z.infer<typeof redeemBatchSchema>;
export type Redemption = z.infer<typeof redemptionSchema>;
export type RedeemBatchCreateBody = z.input<typeof redeemBatchCreateRequest>;
export type RedeemBatchFilters = { state?: 'active' | 'revoked'; q?: string };

export const BATCHES_PATH = '/redeem-batches';

/** The batches with their uses, a page at a time, sorted by a column (newest first at the start). */
export const useRedeemBatches = (filters: RedeemBatchFilters) =>
  usePageList<RedeemBatch>(BATCHES_PATH, filters, { sortable: true, sorts: REDEEM_BATCH_SORTS });

/** A batch's redemptions, newest first. */
export const useRedemptions = (batchId: string) =>
  usePageList<Redemption>(`${BATCHES_PATH}/${batchId}/redemptions`);

/** Generates a batch: the reply carries its codes as CSV, this once. */
export const createBatch = (body: RedeemBatchCreateBody) =>
  api<{ batch: RedeemBatch; csv: string }>('POST', BATCHES_PATH, body);

export const revokeBatch = (id: string) => api<RedeemBatch>('POST', `${BATCHES_PATH}/${id}/revoke`, {});

/** Revokes one code, as staff typed it. */
export const revokeCode = (code: string) =>
  api<z.infer<typeof redeemCodeRevokedSchema>>('POST', '/redeem-codes/revoke', { code });
