import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { uuidParams } from '@skyway/shared/schemas/admin/common';
import { listQuery } from '@skyway/shared/schemas/paging';
import {
  adjustTimeReply,
  adjustTimeRequest,
  USER_SEARCH_MIN_LENGTH,
  userDetailSchema,
  userListQuery,
  userListSchema,
  userPatchRequest,
  userSectionParams,
  userSectionSchema,
  userSummarySchema,
} from '@skyway/shared/schemas/admin/users';
import { noFields } from '@skyway/shared/schemas/envelope';
import { DAY_SECONDS } from '@skyway/shared/plans';
import type { Database } from '../../db/client.ts';
import { ok, replies } from '../../http/envelope.ts';
import { AppError } from '../../http/errors.ts';
import { signedInStaff } from '../staff/signed-in-staff.ts';
import { presentSection, presentUserDetail, presentUserSummary } from './present.ts';
import { findUser, searchUsers, userSectionPage, userSurroundings } from './repository.ts';
import { adjustUserTime, endUserSessions, setUserAccess } from './service.ts';

const pageAt = (page: number, size: number) => ({ limit: size, offset: (page - 1) * size });

/** The customers' accounts in the back office: search, an account's picture, and staff's actions on it. */
export async function customerRoutes(app: FastifyInstance, options: { db: Database }): Promise<void> {
  const { db } = options;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['users'];

  routes.get(
    '/users',
    {
      config: { staff: 'users.view' },
      schema: { tags, querystring: userListQuery, response: replies(userListSchema) },
    },
    async (request) => {
      const { q, page, size, order } = request.query;
      if (q && q.length < USER_SEARCH_MIN_LENGTH) throw new AppError(400, 'field_invalid', { field: 'q' });
      const found = await searchUsers(db, q || undefined, pageAt(page, size), order);
      return ok(request, {
        total: found.total,
        total_capped: found.capped,
        page,
        size,
        items: found.rows.map(presentUserSummary),
      });
    },
  );

  routes.get(
    '/users/:id',
    {
      config: { staff: 'users.view' },
      schema: { tags, params: uuidParams, response: replies(userDetailSchema) },
    },
    async (request) => {
      const user = await findUser(db, request.params.id);
      if (!user) throw new AppError(404, 'not_found');
      return ok(request, presentUserDetail(user, await userSurroundings(db, user, new Date())));
    },
  );

  routes.get(
    '/users/:id/:section',
    {
      config: { staff: 'users.view' },
      schema: {
        tags,
        params: userSectionParams,
        querystring: listQuery,
        response: replies(userSectionSchema),
      },
    },
    async (request) => {
      const { page, size } = request.query;
      const found = await userSectionPage(db, request.params.id, request.params.section, pageAt(page, size));
      return ok(request, { total: found.total, page, size, items: presentSection(found) });
    },
  );

  routes.post(
    '/users/:id/time',
    {
      config: { staff: 'users.adjust_time' },
      schema: { tags, params: uuidParams, body: adjustTimeRequest, response: replies(adjustTimeReply) },
    },
    async (request) => {
      const { days, hours, reason } = request.body;
      const expireAt = await adjustUserTime(db, signedInStaff(request).actor, {
        id: request.params.id,
        seconds: days * DAY_SECONDS + hours * 3600,
        reason,
        now: new Date(),
      });
      return ok(request, { expire_at: expireAt?.toISOString() ?? null });
    },
  );

  routes.delete(
    '/users/:id/sessions',
    {
      config: { staff: 'users.end_sessions' },
      schema: { tags, params: uuidParams, response: replies(noFields) },
    },
    async (request) => {
      await endUserSessions(db, signedInStaff(request).actor, { id: request.params.id, now: new Date() });
      return ok(request, {});
    },
  );

  routes.patch(
    '/users/:id',
    {
      config: { staff: 'users.disable' },
      schema: { tags, params: uuidParams, body: userPatchRequest, response: replies(userSummarySchema) },
    },
    async (request) => {
      const changed = await setUserAccess(db, signedInStaff(request).actor, {
        id: request.params.id,
        ...request.body,
        now: new Date(),
      });
      return ok(request, presentUserSummary(changed));
    },
  );
}
