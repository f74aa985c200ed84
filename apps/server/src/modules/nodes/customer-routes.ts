import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { noFields } from '@skyway/shared/schemas/envelope';
import { nodeStatusListSchema } from '@skyway/shared/schemas/node-status';
import type { Database } from '../../db/client.ts';
import { ok, replies } from '../../http/envelope.ts';
import { signedIn } from '../sessions/signed-in.ts';
import { nodeStatusFor } from './customer-status.ts';

/** The console's node status page: the nodes the customer's access may use, and how each is. */
export async function nodeStatusRoutes(app: FastifyInstance, options: { db: Database }): Promise<void> {
  app
    .withTypeProvider<ZodTypeProvider>()
    .post(
      '/web/node/status',
      { config: { auth: 'required' }, schema: { body: noFields, response: replies(nodeStatusListSchema) } },
      async (request) => ok(request, await nodeStatusFor(options.db, signedIn(request).user, new Date())),
    );
}
