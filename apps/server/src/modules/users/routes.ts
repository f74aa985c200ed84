import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { noFields } from '@skyway/shared/schemas/envelope';
import { userInfoSchema } from '@skyway/shared/schemas/user';
import type { Database } from '../../db/client.ts';
import { signedIn } from '../../plugins/auth.ts';
import { ok, replies } from '../../plugins/envelope.ts';
import { trialEnd } from '../invitations/repository.ts';
import { appStorePeriodEnd } from '../access/app-store-repository.ts';
import { presentUserInfo } from './present.ts';

export async function userRoutes(app: FastifyInstance, options: { db: Database }): Promise<void> {
  app
    .withTypeProvider<ZodTypeProvider>()
    .post(
      '/web/user/info',
      { config: { auth: 'required' }, schema: { body: noFields, response: replies(userInfoSchema) } },
      async (request) => {
        const { user } = signedIn(request);
        const [appStoreExpire, trialExpire] = await Promise.all([
          appStorePeriodEnd(options.db, user.id),
          trialEnd(options.db, user.id),
        ]);
        return ok(request, presentUserInfo(user, { appStoreExpire, trialEnd: trialExpire }));
      },
    );
}
