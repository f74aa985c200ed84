import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { noFields } from '@skyway/shared/schemas/envelope';
import { siteConfSchema } from '@skyway/shared/schemas/site';
import type { SiteConf } from '@skyway/shared/site';
import type { Config } from '../../config.ts';
import { ok, replies } from '../../http/envelope.ts';

export async function siteRoutes(app: FastifyInstance, options: { config: Config }): Promise<void> {
  const { config } = options;
  const conf: SiteConf = {
    site_name: config.siteName,
    support_email: config.supportEmail,
    downloads: config.downloads,
    signing: Boolean(config.signatureSecret),
  };
  app
    .withTypeProvider<ZodTypeProvider>()
    .post(
      '/web/site/conf',
      { config: { auth: 'public' }, schema: { body: noFields, response: replies(siteConfSchema) } },
      async (request) => ok(request, conf),
    );
}
