import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { noFields } from '@skyway/shared/schemas/envelope';
import {
  helpArticleRequest,
  helpArticleSchema,
  helpListSchema,
  helpSearchRequest,
  helpSearchSchema,
} from '@skyway/shared/schemas/help';
import type { Database } from '../../db/client.ts';
import { ok, replies } from '../../http/envelope.ts';
import { AppError } from '../../http/errors.ts';
import { requestLanguage } from '../../http/language.ts';
import { renderArticle } from './render.ts';
import { publishedArticle, publishedArticles } from './repository.ts';
import { prepareHelpIndex, searchArticles } from './search.ts';

/** Whether the caller, if signed in, has access now: the sections for those with access follow it. */
const hasAccessNow = (request: FastifyRequest, now: Date) =>
  request.user?.expireAt != null && request.user.expireAt > now;

/** The help center's calls (PRODUCT.md section 10): public, in the caller's language. */
export async function helpRoutes(app: FastifyInstance, options: { db: Database; siteName: string }) {
  const { db, siteName } = options;
  const routes = app.withTypeProvider<ZodTypeProvider>();

  // The search's index is built once the app is ready rather than by the first search; should that
  // fail, the first search builds it.
  app.addHook('onReady', async () => {
    prepareHelpIndex(db, siteName).catch((error: unknown) =>
      app.log.debug({ err: error }, 'help search index not built at start'),
    );
  });

  routes.post(
    '/web/help/list',
    { config: { auth: 'public' }, schema: { body: noFields, response: replies(helpListSchema) } },
    async (request) => {
      const language = requestLanguage(request);
      const rows = await publishedArticles(db);
      return ok(request, {
        list: rows.map((row) => ({ slug: row.slug, title: row.title[language], category: row.category })),
      });
    },
  );

  routes.post(
    '/web/help/article',
    {
      config: { auth: 'optional' },
      schema: { body: helpArticleRequest, response: replies(helpArticleSchema) },
    },
    async (request) => {
      const row = await publishedArticle(db, request.body.slug);
      if (!row) throw new AppError(404, 'not_found');
      const language = requestLanguage(request);
      const reader = { hasAccess: hasAccessNow(request, new Date()), siteName };
      return ok(request, {
        slug: row.slug,
        title: row.title[language],
        category: row.category,
        html: renderArticle(row.body[language], reader),
        update_time: Math.floor(row.updatedAt.getTime() / 1000),
      });
    },
  );

  routes.post(
    '/web/help/search',
    { config: { auth: 'public' }, schema: { body: helpSearchRequest, response: replies(helpSearchSchema) } },
    async (request) =>
      ok(request, { list: await searchArticles(db, request.body.q, requestLanguage(request), siteName) }),
  );
}
