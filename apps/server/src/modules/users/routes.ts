import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { noFields } from '@skyway/shared/schemas/envelope';
import { userInfoSchema } from '@skyway/shared/schemas/user';
import { signedIn } from '../sessions/signed-in.ts';
import { ok, replies } from '../../http/envelope.ts';
import { presentUserInfo } from './present.ts';

export async function userRoutes(app: FastifyInstance): Promise<void> {
  app
    .withTypeProvider<ZodTypeProvider>()
    .post(
      '/web/user/info',
      { config: { auth: 'required' }, schema: { body: noFields, response: replies(userInfoSchema) } },
      async (request) => {
        const { user, ends } = signedIn(request);
        return ok(request, presentUserInfo(user, ends));
      },
    );
}
