import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { z } from 'zod';
import { auditRoutes } from './modules/audit/routes.ts';
import { customerRoutes } from './modules/customers/routes.ts';
import { operationsRoutes } from './modules/operations/routes.ts';
import { dashboardRoutes } from './modules/dashboard/routes.ts';
import { couponAdminRoutes } from './modules/coupons/admin-routes.ts';
import { gatewayAdminRoutes } from './modules/gateways/admin-routes.ts';
import { settingsRoutes } from './modules/configuration/routes.ts';
import { nodeRoutes } from './modules/nodes/routes.ts';
import { noticeAdminRoutes } from './modules/notices/admin-routes.ts';
import { helpAdminRoutes } from './modules/help/admin-routes.ts';
import { redeemAdminRoutes } from './modules/redeem-codes/admin-routes.ts';
import { salesRoutes } from './modules/sales/routes.ts';
import { staffRoutes } from './modules/staff/routes.ts';
import { ticketAdminRoutes } from './modules/tickets/admin-routes.ts';
import { myAlertsRoutes } from './modules/alerts/routes.ts';
import { telegramAdminRoutes } from './modules/telegram/admin-routes.ts';
import type { BotLoader } from './modules/telegram/bot.ts';
import type { GatewayProviders, PaymentProvider } from './modules/orders/provider.ts';
import type { StaffDeps } from './modules/staff/service.ts';
import { staffCookieFor } from './modules/staff/signed-in-staff.ts';
import { staffAuthPlugin } from './plugins/staff-auth.ts';

export const ADMIN_API_PREFIX = '/admin/api/v1';

/**
 * The back office's API (PRODUCT.md section 5), mounted at ADMIN_API_PREFIX: REST verbs, zod
 * schemas on every request and reply, the `/web/` envelope, and an OpenAPI document made from those
 * schemas that only signed-in staff may read. The customer calls are not in it: the document is
 * built from the routes of this context alone.
 */
export async function adminApi(
  app: FastifyInstance,
  options: StaffDeps & {
    /** Where set-up links point: the back office's address, else the site's, else the request's. */
    publicUrl: string | undefined;
    /** ADMIN_PUBLIC_URL: the back office's own origin, which its cookie is bound to. */
    adminUrl: string | undefined;
    jobEverySeconds: Record<string, number>;
    provider: PaymentProvider;
    /** The payment gateways, whose payments are refunded through them. */
    gateways: GatewayProviders;
    /** SECRETS_KEY: what the payment gateways' keys are sealed with. */
    secretsKey: Buffer | undefined;
    /** Where the site is: links in mail that staff actions send point there. */
    siteOrigin: string;
    /** The Telegram bot: Telegram's Bot API, the site's public address (a webhook there), the loaded bot. */
    telegram: { apiRoot: string; publicUrl: string | undefined; loadBot: BotLoader };
  },
): Promise<void> {
  const cookie = staffCookieFor(options.adminUrl);
  await app.register(swagger, {
    openapi: {
      info: { title: 'Skyway back office API', version: '1' },
      components: {
        securitySchemes: {
          staffSession: { type: 'apiKey', in: 'cookie', name: cookie.name },
          csrf: { type: 'apiKey', in: 'header', name: 'x-csrf-token' },
        },
      },
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(staffAuthPlugin, { db: options.db, cookie });
  const { db, counters, mailer, siteName, publicUrl } = options;
  await app.register(staffRoutes, { db, counters, mailer, siteName, publicUrl });
  await app.register(dashboardRoutes, { db });
  await app.register(customerRoutes, { db });
  await app.register(settingsRoutes, { db });
  await app.register(operationsRoutes, { db, jobEverySeconds: options.jobEverySeconds });
  await app.register(salesRoutes, { db, provider: options.provider, gateways: options.gateways });
  await app.register(nodeRoutes, { db });
  await app.register(noticeAdminRoutes, { db });
  await app.register(helpAdminRoutes, { db, siteName });
  await app.register(auditRoutes, { db });
  await app.register(gatewayAdminRoutes, { db, secretsKey: options.secretsKey });
  await app.register(couponAdminRoutes, { db });
  await app.register(redeemAdminRoutes, { db });
  await app.register(ticketAdminRoutes, { db, mailer, siteOrigin: options.siteOrigin });
  await app.register(telegramAdminRoutes, { db, secretsKey: options.secretsKey, ...options.telegram });
  await app.register(myAlertsRoutes, { db });

  app.withTypeProvider<ZodTypeProvider>().get(
    '/openapi.json',
    {
      config: { staff: 'signed_in' },
      schema: { hide: true, response: { 200: z.looseObject({ openapi: z.string() }) } },
    },
    async () => app.swagger() as unknown as { openapi: string },
  );
}
