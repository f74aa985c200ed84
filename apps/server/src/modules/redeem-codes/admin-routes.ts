import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { uuidParams } from '@skyway/shared/schemas/admin/common';
import {
  redeemBatchCreateRequest,
  redeemBatchListQuery,
  redeemBatchListSchema,
  redeemBatchSchema,
  redeemCodeRevokedSchema,
  redeemCodeRevokeRequest,
  redemptionListQuery,
  redemptionListSchema,
} from '@skyway/shared/schemas/admin/redeem-codes';
import { noFields } from '@skyway/shared/schemas/envelope';
import type { Database } from '../../db/client.ts';
import { ok, replies } from '../../http/envelope.ts';
import { signedInStaff } from '../staff/signed-in-staff.ts';
import { listBatches } from './repository.ts';
import { createBatch, listRedemptions, presentBatch, revokeBatch, revokeCode, showBatch } from './service.ts';

/** A new batch and its codes, as CSV: the one reply that ever carries them. */
const createdBatchSchema = z.object({ batch: redeemBatchSchema, csv: z.string() });

/**
 * The back office's redeem codes (PRODUCT.md section 9), for owners, admins and finance: batches
 * generated (their codes in the reply, once), listed with their uses, their redemptions, revoked
 * whole or a code at a time. Codes come out of the create call only: no other reply, log line or
 * audit row carries one.
 */
export async function redeemAdminRoutes(app: FastifyInstance, options: { db: Database }): Promise<void> {
  const { db } = options;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['redeem codes'];
  const edit = { staff: 'redeem.edit' } as const;
  const actor = (request: Parameters<typeof signedInStaff>[0]) => signedInStaff(request).actor;

  routes.get(
    '/redeem-batches',
    {
      config: edit,
      schema: { tags, querystring: redeemBatchListQuery, response: replies(redeemBatchListSchema) },
    },
    async (request) => {
      const { rows, total } = await listBatches(db, request.query);
      return ok(request, { items: rows.map(presentBatch), total });
    },
  );

  routes.post(
    '/redeem-batches',
    { config: edit, schema: { tags, body: redeemBatchCreateRequest, response: replies(createdBatchSchema) } },
    async (request) => {
      const { batch, csv } = await createBatch(db, actor(request), request.body, new Date());
      return ok(request, { batch: presentBatch(batch), csv });
    },
  );

  routes.get(
    '/redeem-batches/:id',
    { config: edit, schema: { tags, params: uuidParams, response: replies(redeemBatchSchema) } },
    async (request) => ok(request, presentBatch(await showBatch(db, request.params.id))),
  );

  routes.get(
    '/redeem-batches/:id/redemptions',
    {
      config: edit,
      schema: {
        tags,
        params: uuidParams,
        querystring: redemptionListQuery,
        response: replies(redemptionListSchema),
      },
    },
    async (request) => ok(request, await listRedemptions(db, request.params.id, request.query)),
  );

  routes.post(
    '/redeem-batches/:id/revoke',
    {
      config: edit,
      schema: { tags, params: uuidParams, body: noFields, response: replies(redeemBatchSchema) },
    },
    async (request) =>
      ok(request, presentBatch(await revokeBatch(db, actor(request), request.params.id, new Date()))),
  );

  routes.post(
    '/redeem-codes/revoke',
    {
      config: edit,
      schema: { tags, body: redeemCodeRevokeRequest, response: replies(redeemCodeRevokedSchema) },
    },
    async (request) => ok(request, await revokeCode(db, actor(request), request.body.code, new Date())),
  );
}
