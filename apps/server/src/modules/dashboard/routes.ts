import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  dailyQuery,
  dailySchema,
  dashboardQuery,
  dashboardSchema,
} from '@skyway/shared/schemas/admin/dashboard';
import type { Database } from '../../db/client.ts';
import { ok, replies } from '../../http/envelope.ts';
import { dailyFigures, dashboard } from './service.ts';

/** The back office's dashboard: the business at a glance. */
export async function dashboardRoutes(app: FastifyInstance, options: { db: Database }): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/dashboard',
    {
      config: { staff: 'dashboard.view' },
      schema: { tags: ['dashboard'], querystring: dashboardQuery, response: replies(dashboardSchema) },
    },
    async (request) => ok(request, await dashboard(options.db, new Date(), request.query.tz_offset)),
  );
  app.withTypeProvider<ZodTypeProvider>().get(
    '/dashboard/daily',
    {
      config: { staff: 'dashboard.view' },
      schema: { tags: ['dashboard'], querystring: dailyQuery, response: replies(dailySchema) },
    },
    async (request) =>
      ok(request, await dailyFigures(options.db, new Date(), request.query.tz_offset, request.query.days)),
  );
}
