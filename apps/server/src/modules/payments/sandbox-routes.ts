import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requestLanguage } from '../../http/language.ts';
import { returnPath } from '../orders/return-path.ts';
import { isPayable } from '../orders/present.ts';
import { findOrderByCheckout } from '../orders/repository.ts';
import { type FulfilDeps, fulfilPayment } from '../orders/fulfilment.ts';
import { SANDBOX_PATH } from './sandbox.ts';
import { renderSandboxCheckout, renderSandboxMissing } from './sandbox-page.ts';

const params = z.object({ ref: z.string().min(1).max(100) });

/** The sandbox's checkout page and its Pay button (registered only when the sandbox is the provider). */
export async function sandboxRoutes(app: FastifyInstance, options: FulfilDeps): Promise<void> {
  const { db } = options;
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(`${SANDBOX_PATH}/:ref`, { schema: { params } }, async (request, reply) => {
    const language = requestLanguage(request);
    const order = await findOrderByCheckout(db, 'sandbox', request.params.ref);
    reply.header('cache-control', 'no-store').type('text/html; charset=utf-8');
    if (!order) return reply.code(404).send(renderSandboxMissing(language));
    return renderSandboxCheckout(language, {
      order,
      payable: isPayable(order, new Date()),
      payAction: `${SANDBOX_PATH}/${encodeURIComponent(request.params.ref)}/pay`,
      returnUrl: returnPath(order.id),
    });
  });

  // Pay: the sandbox's "notification", through the same fulfilment as a real provider's. Paying
  // twice credits once (the checkout token is the payment id).
  routes.post(`${SANDBOX_PATH}/:ref/pay`, { schema: { params } }, async (request, reply) => {
    const order = await findOrderByCheckout(db, 'sandbox', request.params.ref);
    if (!order) {
      return reply
        .code(404)
        .type('text/html; charset=utf-8')
        .send(renderSandboxMissing(requestLanguage(request)));
    }
    const now = new Date();
    if (isPayable(order, now)) {
      const outcome = await fulfilPayment(
        options,
        {
          provider: 'sandbox',
          orderId: order.id,
          paymentId: request.params.ref,
          amount: order.amount,
          currency: order.currency,
        },
        now,
      );
      request.log.info({ order_id: order.id, outcome }, 'sandbox payment');
    }
    return reply.redirect(returnPath(order.id), 303);
  });
}
