import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../db/client.ts';
import { signedIn } from '../../plugins/auth.ts';
import { ok } from '../../plugins/errors.ts';
import { revokeSession } from './repository.ts';

export async function sessionRoutes(app: FastifyInstance, options: { db: Database }): Promise<void> {
  app
    .withTypeProvider<ZodTypeProvider>()
    .post(
      '/web/login/out',
      { config: { auth: 'required' }, schema: { body: z.object({}) } },
      async (request) => {
        await revokeSession(options.db, signedIn(request).session.id);
        return ok(request, {});
      },
    );
}
