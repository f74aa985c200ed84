import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { uuidParams } from '@skyway/shared/schemas/admin/common';
import {
  couponCreateRequest,
  couponListQuery,
  couponListSchema,
  couponSchema,
  couponStatusRequest,
  couponUpdateRequest,
} from '@skyway/shared/schemas/admin/coupons';
import type { Database } from '../../db/client.ts';
import { ok, replies } from '../../http/envelope.ts';
import { signedInStaff } from '../staff/signed-in-staff.ts';
import { createCoupon, editCoupon, listCouponsForStaff, setCouponStatus } from './service.ts';

/**
 * The back office's coupons (PRODUCT.md section 9), for owners, admins and finance: listed with their
 * uses and what they took off, created, changed, paused, resumed and ended; each change audited.
 */
export async function couponAdminRoutes(app: FastifyInstance, options: { db: Database }): Promise<void> {
  const { db } = options;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['coupons'];
  const edit = { staff: 'coupons.edit' } as const;
  const actor = (request: Parameters<typeof signedInStaff>[0]) => signedInStaff(request).actor;

  routes.get(
    '/coupons',
    { config: edit, schema: { tags, querystring: couponListQuery, response: replies(couponListSchema) } },
    async (request) => ok(request, await listCouponsForStaff(db, request.query, new Date())),
  );

  routes.post(
    '/coupons',
    { config: edit, schema: { tags, body: couponCreateRequest, response: replies(couponSchema) } },
    async (request) => ok(request, await createCoupon(db, actor(request), request.body, new Date())),
  );

  routes.patch(
    '/coupons/:id',
    {
      config: edit,
      schema: { tags, params: uuidParams, body: couponUpdateRequest, response: replies(couponSchema) },
    },
    async (request) =>
      ok(request, await editCoupon(db, actor(request), request.params.id, request.body, new Date())),
  );

  routes.post(
    '/coupons/:id/status',
    {
      config: edit,
      schema: { tags, params: uuidParams, body: couponStatusRequest, response: replies(couponSchema) },
    },
    async (request) =>
      ok(
        request,
        await setCouponStatus(db, actor(request), request.params.id, request.body.action, new Date()),
      ),
  );
}
