import Stripe from 'stripe';
import type { Language } from '@skyway/shared/languages';
import type { PayMethod } from '@skyway/shared/plans';
import type { OrderRow } from '../../db/schema/index.ts';
import { type PaymentProvider, type ProviderPayment, RefundRefused } from '../orders/provider.ts';

export interface StripeOptions {
  secretKey: string;
  webhookSecret: string;
  /** The methods offered to buyers (STRIPE_PAYMENT_METHODS), in PAY_METHODS order. */
  methods: PayMethod[];
  apiUrl: string | undefined;
  siteName: string;
}

/** How long one call to Stripe may take; order/create waits for it. */
const TIMEOUT_MS = 15_000;
/** Connection failures, 409, 429 and 5xx are retried with back-off; the idempotency key makes that safe. */
const MAX_NETWORK_RETRIES = 2;
/** Stripe refuses a session that expires in less than 30 minutes or more than 24 hours. */
const MIN_SESSION_SECONDS = 31 * 60;
const MAX_SESSION_SECONDS = 24 * 60 * 60 - 60;

const LOCALES: Record<Language, Stripe.Checkout.SessionCreateParams.Locale> = {
  en: 'en',
  zh: 'zh',
  tw: 'zh-TW',
};

/** The line item's name on Stripe's page, in the buyer's language. */
function productName(siteName: string, months: number, language: Language): string {
  if (language === 'zh') return `${siteName} — ${months} 个月`;
  if (language === 'tw') return `${siteName} — ${months} 個月`;
  return `${siteName} — ${months} ${months === 1 ? 'month' : 'months'}`;
}

/** A Stripe client; `apiUrl` sends its calls elsewhere (a test server, an egress proxy). */
export function createStripeClient(options: Pick<StripeOptions, 'secretKey' | 'apiUrl'>): Stripe {
  const config: Stripe.StripeConfig = { timeout: TIMEOUT_MS, maxNetworkRetries: MAX_NETWORK_RETRIES };
  if (options.apiUrl) {
    const url = new URL(options.apiUrl);
    const protocol = url.protocol === 'http:' ? 'http' : 'https';
    config.host = url.hostname;
    config.port = url.port || (protocol === 'http' ? 80 : 443);
    config.protocol = protocol;
  }
  return new Stripe(options.secretKey, config);
}

/**
 * The payment of a Checkout Session: the PaymentIntent's id (the same one the webhook reports, so
 * whichever of order/query and the webhook comes second credits nothing), else the session's own.
 */
export function sessionPaymentId(session: Stripe.Checkout.Session): string {
  const intent = session.payment_intent;
  if (typeof intent === 'string' && intent) return intent;
  if (intent && typeof intent === 'object') return intent.id;
  return session.id;
}

/** The Checkout Session of one order: the server's price, our order id in three places, the buyer's language. */
function sessionParams(
  options: Pick<StripeOptions, 'siteName'>,
  request: { order: OrderRow; returnUrl: string; language: Language; email: string },
  now: Date,
): Stripe.Checkout.SessionCreateParams {
  const { order, returnUrl, language, email } = request;
  const nowSeconds = Math.floor(now.getTime() / 1000);
  // A payment that arrives after our own deadline is still credited, so the session may outlive it.
  const expiresAt = Math.min(
    Math.max(Math.floor(order.latestPayAt.getTime() / 1000), nowSeconds + MIN_SESSION_SECONDS),
    nowSeconds + MAX_SESSION_SECONDS,
  );
  const metadata = { order_id: order.id };
  const params: Stripe.Checkout.SessionCreateParams = {
    mode: 'payment',
    // Only the method the buyer chose on the buy page (order/create checked that it is one of
    // STRIPE_PAYMENT_METHODS). The pinned API version (endive) has no `payment_method_types` here:
    // this filters the methods enabled in the Dashboard.
    allowed_payment_method_types: [order.payMethod],
    line_items: [
      {
        price_data: {
          currency: order.currency.toLowerCase(),
          unit_amount: order.unitPrice,
          product_data: { name: productName(options.siteName, order.months, language) },
        },
        quantity: order.connections,
      },
    ],
    client_reference_id: order.id,
    metadata,
    payment_intent_data: { metadata },
    customer_email: email,
    success_url: returnUrl,
    cancel_url: returnUrl,
    locale: LOCALES[language],
    expires_at: expiresAt,
  };
  // Stripe requires the client kind for WeChat Pay: `web` shows a QR code to scan with WeChat.
  if (order.payMethod === 'wechat_pay') {
    params.payment_method_options = { wechat_pay: { client: 'web' } };
  }
  return params;
}

/**
 * Stripe Checkout: one Checkout Session per order, offering the method the buyer chose among those
 * configured (Alipay, WeChat Pay, cards), priced in fen from the order's snapshot. Payments arrive
 * through the signed webhook (stripe-webhook.ts), or through order/query asking for the session when
 * the buyer comes back first.
 */
export function createStripeProvider(options: StripeOptions): PaymentProvider {
  const stripe = createStripeClient(options);
  return {
    name: 'stripe',
    methods: options.methods,
    async createCheckout(request) {
      const session = await stripe.checkout.sessions.create(sessionParams(options, request, new Date()), {
        // A retry (ours or the client's own) opens no second session for the same order.
        idempotencyKey: `checkout-${request.order.id}`,
      });
      if (!session.url) throw new Error(`Stripe returned checkout session ${session.id} without a url`);
      return { ref: session.id, url: session.url };
    },
    async findPayment(order): Promise<ProviderPayment | null> {
      if (!order.providerRef) return null;
      const session = await stripe.checkout.sessions.retrieve(order.providerRef);
      if (session.payment_status !== 'paid') return null;
      return {
        paymentId: sessionPaymentId(session),
        amount: session.amount_total ?? 0,
        currency: (session.currency ?? '').toUpperCase(),
      };
    },
    async closeCheckout(order) {
      if (!order.providerRef) return;
      try {
        await stripe.checkout.sessions.expire(order.providerRef);
      } catch (error) {
        // Stripe refuses (400) to expire a session that is no longer open: completed (its payment is
        // credited by the webhook or order/query as any other) or expired already. Either way no one
        // can pay it any more; only a session still open means the call did not do its job.
        if (!(error instanceof Stripe.errors.StripeInvalidRequestError)) throw error;
        const session = await stripe.checkout.sessions.retrieve(order.providerRef);
        if (session.status === 'open') throw error;
      }
    },
    async refund(payment, key) {
      // A payment is recorded under its PaymentIntent; a Checkout Session id means there was none.
      if (!payment.providerPaymentId.startsWith('pi_')) {
        throw new RefundRefused(`no PaymentIntent to refund for ${payment.providerPaymentId}`);
      }
      try {
        const refund = await stripe.refunds.create(
          { payment_intent: payment.providerPaymentId, amount: payment.amount },
          { idempotencyKey: `refund-${key}` },
        );
        if (refund.status === 'failed' || refund.status === 'canceled') {
          throw new RefundRefused(`Stripe answered refund ${refund.id} as ${refund.status}`);
        }
        return { id: refund.id, status: refund.status === 'succeeded' ? 'succeeded' : 'pending' };
      } catch (error) {
        // A 4xx is Stripe's no (already refunded, disputed…); anything else may not have reached it.
        if (error instanceof Stripe.errors.StripeInvalidRequestError) throw new RefundRefused(error.message);
        throw error;
      }
    },
  };
}
