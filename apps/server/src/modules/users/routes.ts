import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { noFields } from '@skyway/shared/schemas/envelope';
import { userInfoSchema } from '@skyway/shared/schemas/user';
import type { Database } from '../../db/client.ts';
import { signedIn } from '../../plugins/auth.ts';
import { ok, replies } from '../../plugins/envelope.ts';
import { accountEnds } from '../access/repository.ts';
import { presentUserInfo } from './present.ts';

export async function userRoutes(app: FastifyInstance, options: { db: Database }): Promise<void> {
  app
    .withTypeProvider<ZodTypeProvider>()
    .post(
      '/web/user/info',
      { config: { auth: 'required' }, schema: { body: noFields, response: replies(userInfoSchema) } },
      async (request) => {
        const { user } = signedIn(request);
        return ok(request, presentUserInfo(user, await accountEnds(options.db, user.id)));
      },
    );
}
