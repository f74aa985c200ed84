import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { noFields } from '@skyway/shared/schemas/envelope';
import {
  telegramBotSettingsSchema,
  telegramBotTestSchema,
  telegramBotTokenRequest,
} from '@skyway/shared/schemas/admin/telegram';
import type { Database } from '../../db/client.ts';
import { ok, replies } from '../../http/envelope.ts';
import { signedInStaff } from '../staff/signed-in-staff.ts';
import type { BotLoader } from './bot.ts';
import { presentBotSettings, saveBotToken, testBot } from './service.ts';

/** The back office's bot settings: its token (in, never out) and a test that Telegram still takes it. */
export async function telegramAdminRoutes(
  app: FastifyInstance,
  options: {
    db: Database;
    secretsKey: Buffer | undefined;
    apiRoot: string;
    publicUrl: string | undefined;
    loadBot: BotLoader;
  },
): Promise<void> {
  const { db, publicUrl } = options;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['telegram'];
  const edit = { staff: 'telegram.edit' } as const;

  routes.get(
    '/telegram/bot',
    { config: edit, schema: { tags, response: replies(telegramBotSettingsSchema) } },
    async (request) => ok(request, await presentBotSettings(db, publicUrl)),
  );

  routes.post(
    '/telegram/bot',
    {
      config: edit,
      schema: { tags, body: telegramBotTokenRequest, response: replies(telegramBotSettingsSchema) },
    },
    async (request) => {
      await saveBotToken(db, options, signedInStaff(request).actor, request.body.token, new Date());
      return ok(request, await presentBotSettings(db, publicUrl));
    },
  );

  routes.post(
    '/telegram/bot/test',
    { config: edit, schema: { tags, body: noFields, response: replies(telegramBotTestSchema) } },
    async (request) => ok(request, await testBot(options.loadBot)),
  );
}
