import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { noFields } from '@skyway/shared/schemas/envelope';
import {
  createdOrderSchema,
  orderCreateRequest,
  orderIdRequest,
  orderListRequest,
  orderListSchema,
  orderSchema,
  planListSchema,
} from '@skyway/shared/schemas/plans';
import { couponCheckRequest, couponCheckSchema } from '@skyway/shared/schemas/coupons';
import { signedIn } from '../sessions/signed-in.ts';
import { ok, replies } from '../../http/envelope.ts';
import { requestLanguage } from '../../http/language.ts';
import { siteOrigin } from '../../lib/site-origin.ts';
import { returnPath } from './return-path.ts';
import {
  cancelOrder,
  checkCoupon,
  createOrder,
  listOrders,
  listPlans,
  type OrderDeps,
  queryOrder,
} from './service.ts';

/** The plan and order calls of PRODUCT.md section 2. */
export async function orderRoutes(
  app: FastifyInstance,
  options: OrderDeps & { publicUrl: string | undefined },
): Promise<void> {
  const { db, publicUrl } = options;
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.post(
    '/web/plan/list',
    { config: { auth: 'public' }, schema: { body: noFields, response: replies(planListSchema) } },
    async (request) => ok(request, await listPlans(options, requestLanguage(request))),
  );

  routes.post(
    '/web/order/create',
    {
      config: { auth: 'required' },
      schema: { body: orderCreateRequest, response: replies(createdOrderSchema) },
    },
    async (request) => {
      const origin = siteOrigin(request, publicUrl);
      const created = await createOrder(options, signedIn(request).user, request.body, {
        language: requestLanguage(request),
        returnUrl: (orderId) => origin + returnPath(orderId),
        clientIp: request.ip,
        now: new Date(),
      });
      return ok(request, created, 'order_created');
    },
  );

  routes.post(
    '/web/coupon/check',
    {
      config: { auth: 'required' },
      schema: { body: couponCheckRequest, response: replies(couponCheckSchema) },
    },
    async (request) =>
      ok(
        request,
        await checkCoupon(options, signedIn(request).user, request.body, {
          clientIp: request.ip,
          now: new Date(),
        }),
      ),
  );

  routes.post(
    '/web/order/list',
    { config: { auth: 'required' }, schema: { body: orderListRequest, response: replies(orderListSchema) } },
    async (request) => ok(request, await listOrders(db, signedIn(request).user, request.body, new Date())),
  );

  routes.post(
    '/web/order/query',
    { config: { auth: 'required' }, schema: { body: orderIdRequest, response: replies(orderSchema) } },
    async (request) =>
      ok(request, await queryOrder(options, signedIn(request).user, request.body.order_id, new Date())),
  );

  routes.post(
    '/web/order/cancel',
    { config: { auth: 'required' }, schema: { body: orderIdRequest, response: replies(noFields) } },
    async (request) => {
      await cancelOrder(options, signedIn(request).user, request.body.order_id, new Date());
      return ok(request, {}, 'order_cancelled');
    },
  );
}
