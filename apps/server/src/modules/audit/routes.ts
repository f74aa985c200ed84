import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { auditEntrySchema, auditListQuery } from '@skyway/shared/schemas/admin/audit';
import { pageOf } from '@skyway/shared/schemas/paging';
import type { Database } from '../../db/client.ts';
import { ok, replies } from '../../http/envelope.ts';
import { listAudit } from './repository.ts';

/** The audit log, newest first, filtered by member, action or target. */
export async function auditRoutes(app: FastifyInstance, options: { db: Database }): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  routes.get(
    '/audit',
    {
      config: { staff: 'audit.view' },
      schema: { tags: ['audit'], querystring: auditListQuery, response: replies(pageOf(auditEntrySchema)) },
    },
    async (request) => {
      const { page, size, staff_id, action, target_type, target_id, order } = request.query;
      const filter = { staffId: staff_id, action, targetType: target_type, targetId: target_id, order };
      const { rows, total } = await listAudit(options.db, filter, page, size);
      const items = rows.map((row) => ({
        id: row.id,
        at: row.at.toISOString(),
        staff_id: row.staffId,
        staff_email: row.staffEmail,
        role: row.role,
        action: row.action,
        target_type: row.targetType,
        target_id: row.targetId,
        before: row.before,
        after: row.after,
        ip: row.ip,
      }));
      return ok(request, { total, page, size, items });
    },
  );
}
