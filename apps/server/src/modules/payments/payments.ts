import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { appleRoutes } from './apple-routes.ts';
import { createAppleVerifier } from './apple-verify.ts';
import type { PaymentConfirmations } from '../orders/payment-confirmation.ts';
import type { PaymentProvider } from '../orders/provider.ts';
import type { LimitCounters } from '../limits/counters.ts';
import { alipayNotifyRoutes } from './alipay-notify-routes.ts';
import { epayNotifyRoutes } from './epay-notify-routes.ts';
import { createSandboxProvider } from './sandbox.ts';
import { sandboxRoutes } from './sandbox-routes.ts';
import { createStripeProvider } from './stripe.ts';
import { stripeWebhookRoutes } from './stripe-webhook.ts';
import { usdtNotifyRoutes } from './usdt-notify-routes.ts';

/** The provider the config chose (the config has already refused the sandbox in production). */
export function createPaymentProvider(config: Config): PaymentProvider {
  if (config.payments.provider === 'stripe') {
    return createStripeProvider({ ...config.payments.stripe, siteName: config.siteName });
  }
  return createSandboxProvider();
}

/**
 * The provider's own endpoints: the sandbox's checkout page, or Stripe's webhook; the payment
 * gateways' notifies (Epay, USDT, Alipay face-to-face); and App Store
 * notifications when APPLE_BUNDLE_ID is set (whatever the card provider).
 */
export async function paymentRoutes(
  app: FastifyInstance,
  options: { db: Database; config: Config; counters: LimitCounters; confirmations: PaymentConfirmations },
): Promise<void> {
  const { db, config, confirmations } = options;
  const notifies = { db, confirmations, secretsKey: config.payments.secretsKey, counters: options.counters };
  await app.register(epayNotifyRoutes, notifies);
  await app.register(usdtNotifyRoutes, notifies);
  await app.register(alipayNotifyRoutes, notifies);
  if (config.payments.provider === 'stripe') {
    await app.register(stripeWebhookRoutes, {
      db,
      confirmations,
      webhookSecret: config.payments.stripe.webhookSecret,
    });
  } else {
    await app.register(sandboxRoutes, { db, confirmations });
  }
  const apple = config.payments.apple;
  if (apple) {
    const verifier = createAppleVerifier(apple, config.env);
    await app.register(appleRoutes, { handler: { db, verifier, products: apple.products } });
  }
}
