import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { noFields } from '@skyway/shared/schemas/envelope';
import {
  inviteConfSchema,
  inviteListRequest,
  inviteListSchema,
  timeGrantSchema,
} from '@skyway/shared/schemas/invitations';
import type { Database } from '../../db/client.ts';
import { signedIn } from '../sessions/signed-in.ts';
import { ok, replies } from '../../http/envelope.ts';
import { claimTrial, inviteConf, listInvitations, withdrawRewards } from './service.ts';

/** The trial and invitation calls of PRODUCT.md section 2. */
export async function invitationRoutes(app: FastifyInstance, options: { db: Database }): Promise<void> {
  const { db } = options;
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.post(
    '/web/invite/conf',
    { config: { auth: 'public' }, schema: { body: noFields, response: replies(inviteConfSchema) } },
    async (request) => ok(request, await inviteConf(db)),
  );

  routes.post(
    '/web/invite/claim',
    { config: { auth: 'required' }, schema: { body: noFields, response: replies(timeGrantSchema) } },
    async (request) =>
      ok(request, await claimTrial(db, signedIn(request).user.id, new Date()), 'trial_granted'),
  );

  routes.post(
    '/web/invite/list',
    {
      config: { auth: 'required' },
      schema: { body: inviteListRequest, response: replies(inviteListSchema) },
    },
    async (request) => ok(request, await listInvitations(db, signedIn(request).user, request.body)),
  );

  routes.post(
    '/web/invite/withdraw',
    { config: { auth: 'required' }, schema: { body: noFields, response: replies(timeGrantSchema) } },
    async (request) =>
      ok(request, await withdrawRewards(db, signedIn(request).user.id, new Date()), 'rewards_withdrawn'),
  );
}
