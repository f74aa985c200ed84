import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { signedIn } from '../../plugins/auth.ts';
import { ok } from '../../plugins/errors.ts';
import { presentUserInfo } from './present.ts';

export async function userRoutes(app: FastifyInstance): Promise<void> {
  app
    .withTypeProvider<ZodTypeProvider>()
    .post(
      '/web/user/info',
      { config: { auth: 'required' }, schema: { body: z.object({}) } },
      async (request) => ok(request, presentUserInfo(signedIn(request).user)),
    );
}
