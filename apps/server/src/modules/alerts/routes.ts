import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { noFields } from '@skyway/shared/schemas/envelope';
import { myAlertsSchema, staffAlertPreferencesRequest } from '@skyway/shared/schemas/admin/alerts';
import { telegramBindLinkSchema } from '@skyway/shared/schemas/telegram';
import type { Database } from '../../db/client.ts';
import { ok, replies } from '../../http/envelope.ts';
import { signedInStaff } from '../staff/signed-in-staff.ts';
import { createBindLink } from '../telegram/service.ts';
import { myAlerts, setMyPreferences, unbindMyTelegram } from './my-alerts.ts';

/**
 * "My alerts": every signed-in member, whatever their role, reads and sets their own alerts alone;
 * no call names a member, so none reaches another's.
 */
export async function myAlertsRoutes(app: FastifyInstance, options: { db: Database }): Promise<void> {
  const { db } = options;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['alerts'];
  const self = { staff: 'signed_in' } as const;

  routes.get(
    '/me/alerts',
    { config: self, schema: { tags, response: replies(myAlertsSchema) } },
    async (request) => ok(request, await myAlerts(db, signedInStaff(request).actor)),
  );

  routes.post(
    '/me/alerts',
    { config: self, schema: { tags, body: staffAlertPreferencesRequest, response: replies(myAlertsSchema) } },
    async (request) => {
      const { actor } = signedInStaff(request);
      await setMyPreferences(db, actor, request.body, new Date());
      return ok(request, await myAlerts(db, actor));
    },
  );

  routes.post(
    '/me/alerts/telegram/link',
    { config: self, schema: { tags, body: noFields, response: replies(telegramBindLinkSchema) } },
    async (request) =>
      ok(request, await createBindLink(db, { staffId: signedInStaff(request).actor.staffId }, new Date())),
  );

  routes.post(
    '/me/alerts/telegram/unbind',
    { config: self, schema: { tags, body: noFields, response: replies(myAlertsSchema) } },
    async (request) => {
      const { actor } = signedInStaff(request);
      await unbindMyTelegram(db, actor, new Date());
      return ok(request, await myAlerts(db, actor));
    },
  );
}
