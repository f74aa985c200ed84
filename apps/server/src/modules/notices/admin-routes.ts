import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { uuidParams } from '@skyway/shared/schemas/admin/common';
import { listQuery, pageOf } from '@skyway/shared/schemas/paging';
import {
  noticeCreateRequest,
  noticePatchRequest,
  noticePreviewRequest,
  noticePreviewSchema,
  noticeSchema,
} from '@skyway/shared/schemas/admin/notices';
import { noFields } from '@skyway/shared/schemas/envelope';
import type { Database } from '../../db/client.ts';
import { ok, replies } from '../../http/envelope.ts';
import { signedInStaff } from '../staff/signed-in-staff.ts';
import { listNotices } from './repository.ts';
import {
  changeNotice,
  createNotice,
  deleteNotice,
  presentNotice,
  publishNotice,
  renderBodies,
  takeDownNotice,
} from './service.ts';

/**
 * The back office's notices to customers, under `/announcements` (`/notices` are the payment
 * providers' notices of the attention queue) (PRODUCT.md section 7): written in every language, previewed as
 * customers will see them, published now or at a time, taken down. Every change is audited.
 */
export async function noticeAdminRoutes(app: FastifyInstance, options: { db: Database }): Promise<void> {
  const { db } = options;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['notices'];
  const edit = { staff: 'notices.edit' } as const;
  const actor = (request: Parameters<typeof signedInStaff>[0]) => signedInStaff(request).actor;

  routes.get(
    '/announcements',
    {
      config: { staff: 'notices.view' },
      schema: { tags, querystring: listQuery, response: replies(pageOf(noticeSchema)) },
    },
    async (request) => {
      const { page, size } = request.query;
      const now = new Date();
      const { rows, total } = await listNotices(db, { limit: size, offset: (page - 1) * size });
      return ok(request, { total, page, size, items: rows.map((row) => presentNotice(row, now)) });
    },
  );

  routes.post(
    '/announcements',
    { config: edit, schema: { tags, body: noticeCreateRequest, response: replies(noticeSchema) } },
    async (request) => {
      const now = new Date();
      return ok(request, presentNotice(await createNotice(db, actor(request), request.body, now), now));
    },
  );

  routes.post(
    '/announcements/preview',
    { config: edit, schema: { tags, body: noticePreviewRequest, response: replies(noticePreviewSchema) } },
    async (request) => ok(request, { body_html: renderBodies(request.body.body) }),
  );

  routes.patch(
    '/announcements/:id',
    {
      config: edit,
      schema: { tags, params: uuidParams, body: noticePatchRequest, response: replies(noticeSchema) },
    },
    async (request) => {
      const now = new Date();
      const row = await changeNotice(db, actor(request), request.params.id, request.body, now);
      return ok(request, presentNotice(row, now));
    },
  );

  routes.post(
    '/announcements/:id/publish',
    { config: edit, schema: { tags, params: uuidParams, body: noFields, response: replies(noticeSchema) } },
    async (request) => {
      const now = new Date();
      return ok(request, presentNotice(await publishNotice(db, actor(request), request.params.id, now), now));
    },
  );

  routes.post(
    '/announcements/:id/take-down',
    { config: edit, schema: { tags, params: uuidParams, body: noFields, response: replies(noticeSchema) } },
    async (request) => {
      const now = new Date();
      return ok(
        request,
        presentNotice(await takeDownNotice(db, actor(request), request.params.id, now), now),
      );
    },
  );

  routes.delete(
    '/announcements/:id',
    { config: edit, schema: { tags, params: uuidParams, response: replies(noFields) } },
    async (request) => {
      await deleteNotice(db, actor(request), request.params.id, new Date());
      return ok(request, {});
    },
  );
}
