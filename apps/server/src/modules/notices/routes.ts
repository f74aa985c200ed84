import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { noFields } from '@skyway/shared/schemas/envelope';
import { noticeListSchema, noticeReadRequest, publicNoticeListSchema } from '@skyway/shared/schemas/notices';
import type { Database } from '../../db/client.ts';
import { signedIn } from '../sessions/signed-in.ts';
import { ok, replies } from '../../http/envelope.ts';
import { AppError } from '../../http/errors.ts';
import { requestLanguage } from '../../http/language.ts';
import { downloadPageNotices } from './download-page.ts';
import { accountNotices, markNoticeRead } from './repository.ts';

const unixSeconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** The signed-in account as notices see it: its audience follows whether its access runs now. */
function reader(request: FastifyRequest, now: Date) {
  const { user } = signedIn(request);
  return { userId: user.id, hasAccess: user.expireAt !== null && user.expireAt > now };
}

/** The notices customers read (PRODUCT.md section 7): the console's bell, and the download page's. */
export async function noticeRoutes(app: FastifyInstance, options: { db: Database }): Promise<void> {
  const { db } = options;
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.post(
    '/web/notice/list',
    { config: { auth: 'required' }, schema: { body: noFields, response: replies(noticeListSchema) } },
    async (request) => {
      const now = new Date();
      const list = await accountNotices(
        db,
        { ...reader(request, now), language: requestLanguage(request) },
        now,
      );
      return ok(request, {
        unread: list.filter((notice) => !notice.read).length,
        list: list.map((notice) => ({
          id: notice.id,
          title: notice.title,
          body_html: notice.bodyHtml,
          publish_time: unixSeconds(notice.publishAt),
          read: notice.read,
        })),
      });
    },
  );

  routes.post(
    '/web/notice/read',
    { config: { auth: 'required' }, schema: { body: noticeReadRequest, response: replies(noFields) } },
    async (request) => {
      const now = new Date();
      if (!(await markNoticeRead(db, reader(request, now), request.body.id, now))) {
        throw new AppError(404, 'not_found');
      }
      return ok(request, {});
    },
  );

  routes.post(
    '/web/notice/public',
    { config: { auth: 'public' }, schema: { body: noFields, response: replies(publicNoticeListSchema) } },
    async (request) =>
      ok(request, { list: await downloadPageNotices(db, requestLanguage(request), new Date()) }),
  );
}
