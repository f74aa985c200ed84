import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { uuidParams } from '@skyway/shared/schemas/admin/common';
import {
  helpArticleAdminListSchema,
  helpArticleAdminSchema,
  helpArticleCreateRequest,
  helpArticlePatchRequest,
  helpPreviewRequest,
  helpPreviewSchema,
} from '@skyway/shared/schemas/admin/help';
import { noFields } from '@skyway/shared/schemas/envelope';
import type { Database } from '../../db/client.ts';
import { ok, replies } from '../../http/envelope.ts';
import { signedInStaff } from '../staff/signed-in-staff.ts';
import { allArticles } from './repository.ts';
import { changeArticle, createArticle, presentArticle, previewBodies, removeArticle } from './service.ts';

/**
 * The back office's help articles (PRODUCT.md section 10): every member reads them, support and up
 * write, order, publish and delete them, with a preview per language. Every change is audited.
 */
export async function helpAdminRoutes(app: FastifyInstance, options: { db: Database; siteName: string }) {
  const { db, siteName } = options;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['help'];
  const edit = { staff: 'help.edit' } as const;
  const actor = (request: Parameters<typeof signedInStaff>[0]) => signedInStaff(request).actor;

  routes.get(
    '/help/articles',
    { config: { staff: 'help.view' }, schema: { tags, response: replies(helpArticleAdminListSchema) } },
    async (request) => ok(request, { items: (await allArticles(db)).map(presentArticle) }),
  );

  routes.post(
    '/help/articles',
    {
      config: edit,
      schema: { tags, body: helpArticleCreateRequest, response: replies(helpArticleAdminSchema) },
    },
    async (request) =>
      ok(request, presentArticle(await createArticle(db, actor(request), request.body, new Date()))),
  );

  routes.post(
    '/help/preview',
    { config: edit, schema: { tags, body: helpPreviewRequest, response: replies(helpPreviewSchema) } },
    async (request) => ok(request, { html: previewBodies(request.body.body, siteName) }),
  );

  routes.patch(
    '/help/articles/:id',
    {
      config: edit,
      schema: {
        tags,
        params: uuidParams,
        body: helpArticlePatchRequest,
        response: replies(helpArticleAdminSchema),
      },
    },
    async (request) => {
      const row = await changeArticle(db, actor(request), request.params.id, request.body, new Date());
      return ok(request, presentArticle(row));
    },
  );

  routes.delete(
    '/help/articles/:id',
    { config: edit, schema: { tags, params: uuidParams, response: replies(noFields) } },
    async (request) => {
      await removeArticle(db, actor(request), request.params.id, new Date());
      return ok(request, {});
    },
  );
}
