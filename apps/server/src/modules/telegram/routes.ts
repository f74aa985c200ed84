import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Update } from 'grammy/types';
import { noFields } from '@skyway/shared/schemas/envelope';
import {
  telegramBindingSchema,
  telegramBindLinkSchema,
  telegramMailRequest,
} from '@skyway/shared/schemas/telegram';
import type { Database } from '../../db/client.ts';
import { ok, replies } from '../../http/envelope.ts';
import { AppError } from '../../http/errors.ts';
import { signedIn } from '../sessions/signed-in.ts';
import type { BotLoader } from './bot.ts';
import { setMailOff, unbindCustomerChat } from './repository.ts';
import { bindingOf, createBindLink } from './service.ts';

const sameSecret = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

const isUpdate = (body: unknown): body is Update =>
  typeof body === 'object' &&
  body !== null &&
  Number.isSafeInteger((body as { update_id?: unknown }).update_id);

/**
 * The console's Telegram binding (its state, a one-time deep link, unbinding) and the bot's webhook.
 * The webhook answers only calls carrying the secret Telegram was given (`X-Telegram-Bot-Api-Secret-Token`):
 * 401 without it, 403 with another, and nothing is processed then.
 */
export async function telegramRoutes(
  app: FastifyInstance,
  options: { db: Database; loadBot: BotLoader },
): Promise<void> {
  const { db, loadBot } = options;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const account = { auth: 'required' } as const;

  routes.post(
    '/web/telegram/binding',
    { config: account, schema: { body: noFields, response: replies(telegramBindingSchema) } },
    async (request) => ok(request, await bindingOf(db, signedIn(request).user.id)),
  );

  routes.post(
    '/web/telegram/link',
    { config: account, schema: { body: noFields, response: replies(telegramBindLinkSchema) } },
    async (request) =>
      ok(request, await createBindLink(db, { userId: signedIn(request).user.id }, new Date())),
  );

  routes.post(
    '/web/telegram/unbind',
    { config: account, schema: { body: noFields, response: replies(telegramBindingSchema) } },
    async (request) => {
      const userId = signedIn(request).user.id;
      await unbindCustomerChat(db, userId);
      return ok(request, await bindingOf(db, userId));
    },
  );

  routes.post(
    '/web/telegram/mail',
    { config: account, schema: { body: telegramMailRequest, response: replies(telegramBindingSchema) } },
    async (request) => {
      const userId = signedIn(request).user.id;
      if (!(await setMailOff(db, userId, request.body.mail_off)))
        throw new AppError(409, 'telegram_not_bound');
      return ok(request, await bindingOf(db, userId));
    },
  );

  app.post('/telegram/webhook', async (request, reply) => {
    const given = request.headers['x-telegram-bot-api-secret-token'];
    if (typeof given !== 'string' || given === '') throw new AppError(401, 'signature_missing');
    const loaded = await loadBot();
    if (!loaded || !sameSecret(given, loaded.secret)) throw new AppError(403, 'signature_invalid');
    if (!isUpdate(request.body)) throw new AppError(400, 'body_invalid');
    await loaded.bot.handleUpdate(request.body);
    return reply.code(200).send({ ok: true });
  });
}
