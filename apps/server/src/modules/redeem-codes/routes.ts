import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { redeemReplySchema, redeemRequest } from '@skyway/shared/schemas/redeem-codes';
import type { Database } from '../../db/client.ts';
import { ok, replies } from '../../http/envelope.ts';
import type { Counters } from '../limits/counters.ts';
import { signedIn } from '../sessions/signed-in.ts';
import { redeemCode } from './service.ts';

/** `/web/redeem`: a signed-in customer redeems a code (PRODUCT.md section 9). */
export async function redeemRoutes(
  app: FastifyInstance,
  options: { db: Database; counters: Counters },
): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  routes.post(
    '/web/redeem',
    { config: { auth: 'required' }, schema: { body: redeemRequest, response: replies(redeemReplySchema) } },
    async (request) => {
      const redeemed = await redeemCode(options, {
        userId: signedIn(request).user.id,
        code: request.body.code,
        ip: request.ip,
        now: new Date(),
      });
      return ok(request, redeemed, 'code_redeemed');
    },
  );
}
