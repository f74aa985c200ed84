import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { orderCreateRequest, orderIdRequest, orderListRequest } from '@skyway/shared/plans';
import { signedIn } from '../../plugins/auth.ts';
import { ok } from '../../plugins/errors.ts';
import { requestLanguage } from '../../plugins/language.ts';
import { cancelOrder, createOrder, listOrders, listPlans, type OrderDeps, queryOrder } from './service.ts';

/**
 * The site's own address: PUBLIC_URL (the config requires it in production), else the request's
 * own, from its Host header (development and tests).
 */
export function siteOrigin(request: FastifyRequest, publicUrl: string | undefined): string {
  return publicUrl ?? `${request.protocol}://${request.host}`;
}

/** The page a buyer comes back to from checkout: /buy opens the payment inquiry dialog for the order. */
export const returnPath = (orderId: string) => `/buy?order_id=${encodeURIComponent(orderId)}`;

/** The plan and order calls of PRODUCT.md section 2. */
export async function orderRoutes(
  app: FastifyInstance,
  options: OrderDeps & { publicUrl: string | undefined },
): Promise<void> {
  const { db, provider, publicUrl } = options;
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.post(
    '/web/plan/list',
    { config: { auth: 'public' }, schema: { body: z.object({}) } },
    async (request) => ok(request, await listPlans(db, provider)),
  );

  routes.post(
    '/web/order/create',
    { config: { auth: 'required' }, schema: { body: orderCreateRequest } },
    async (request) => {
      const origin = siteOrigin(request, publicUrl);
      const created = await createOrder(options, signedIn(request).user, request.body, {
        language: requestLanguage(request),
        returnUrl: (orderId) => origin + returnPath(orderId),
        now: new Date(),
      });
      return ok(request, created, 'order_created');
    },
  );

  routes.post(
    '/web/order/list',
    { config: { auth: 'required' }, schema: { body: orderListRequest } },
    async (request) => ok(request, await listOrders(db, signedIn(request).user, request.body, new Date())),
  );

  routes.post(
    '/web/order/query',
    { config: { auth: 'required' }, schema: { body: orderIdRequest } },
    async (request) =>
      ok(request, await queryOrder(options, signedIn(request).user, request.body.order_id, new Date())),
  );

  routes.post(
    '/web/order/cancel',
    { config: { auth: 'required' }, schema: { body: orderIdRequest } },
    async (request) => {
      await cancelOrder(options, signedIn(request).user, request.body.order_id, new Date());
      return ok(request, {}, 'order_cancelled');
    },
  );
}
