import type { FastifyInstance } from 'fastify';
import Stripe from 'stripe';
import { stripeAcknowledgement } from '@skyway/shared/schemas/payments';
import { errorReplies } from '../../http/envelope.ts';
import { AppError } from '../../http/errors.ts';
import { type FulfilDeps, type FulfilOutcome, fulfilPayment } from '../orders/fulfilment.ts';
import { recordPaymentEvent } from '../payment-events/repository.ts';
import { recordMoneyNotice } from '../sales/notices.ts';
import { sessionPaymentId } from './stripe.ts';

export const STRIPE_WEBHOOK_PATH = '/web/pay/stripe/notify';

/** How old a signed delivery may be (seconds): Stripe's own default, against replays of old deliveries. */
export const STRIPE_SIGNATURE_TOLERANCE = 300;

/** Stripe's events are a few kilobytes; this leaves room without accepting anything huge. */
const WEBHOOK_BODY_LIMIT = 512 * 1024;

type SessionEventOutcome = FulfilOutcome | 'recorded' | 'no_order';
const NEEDS_OPERATOR: ReadonlySet<SessionEventOutcome> = new Set([
  'amount_mismatch',
  'already_paid',
  'unknown_order',
  'no_order',
]);

/** The id of an expandable field of a Stripe object, whether it came as an id or expanded. */
const idOf = (field: string | { id: string } | null): string | null =>
  typeof field === 'string' ? field : (field?.id ?? null);

/** Our order of a Checkout Session: set by createCheckout in its metadata and as client_reference_id. */
const orderIdOf = (session: Stripe.Checkout.Session): string | null =>
  session.metadata?.order_id ?? session.client_reference_id ?? null;

/**
 * Stripe's webhook (PRODUCT.md: `/web/pay/stripe/notify`). Stripe signs the exact bytes it sends, so
 * this plugin, encapsulated, swaps the app's JSON parser for one that keeps the raw body; the spec's
 * MD5 signing does not apply (Stripe's own signature does) and no user is signed in.
 *
 * A 200 tells Stripe to stop; a refused signature is a 400 that changes nothing; any other failure
 * (the database down) is a 500, and Stripe delivers again later. Every delivery may come twice or
 * concurrently: fulfilPayment records each event and each payment once, in the crediting transaction.
 */
export async function stripeWebhookRoutes(
  app: FastifyInstance,
  options: FulfilDeps & { webhookSecret: string },
): Promise<void> {
  const { db, webhookSecret } = options;

  // The bodies plugin's parser is registered through fastify-plugin, i.e. on the root context; this
  // plugin's own context holds a copy of it that can be replaced here without touching any other route.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => {
    done(null, body);
  });

  async function handleSession(
    event: Stripe.Event,
    session: Stripe.Checkout.Session,
    pay: boolean,
    now: Date,
  ): Promise<{ orderId: string | null; outcome: SessionEventOutcome }> {
    const orderId = orderIdOf(session);
    const notice = { id: event.id, type: event.type };
    if (!orderId) {
      // Not one of ours (another integration on the same Stripe account): noted, nothing else.
      await recordPaymentEvent(db, 'stripe', notice, null, now);
      return { orderId, outcome: 'no_order' };
    }
    if (!pay) {
      await recordPaymentEvent(db, 'stripe', notice, orderId, now);
      return { orderId, outcome: 'recorded' };
    }
    const outcome = await fulfilPayment(
      options,
      {
        provider: 'stripe',
        orderId,
        paymentId: sessionPaymentId(session),
        amount: session.amount_total ?? 0,
        currency: session.currency ?? '',
        event: notice,
      },
      now,
    );
    return { orderId, outcome };
  }

  app.post(
    STRIPE_WEBHOOK_PATH,
    // Outside the per-address call ceiling: Stripe sends bursts from a few addresses, each signed.
    {
      config: { auth: 'public', signed: false, ceiling: false },
      bodyLimit: WEBHOOK_BODY_LIMIT,
      schema: { response: { 200: stripeAcknowledgement, ...errorReplies } },
    },
    async (request, reply) => {
      const raw = request.body;
      const signature = request.headers['stripe-signature'];
      let event: Stripe.Event;
      try {
        if (!Buffer.isBuffer(raw) || typeof signature !== 'string')
          throw new Error('no body or no signature');
        event = Stripe.webhooks.constructEvent(raw, signature, webhookSecret, STRIPE_SIGNATURE_TOLERANCE);
      } catch (error) {
        request.log.warn({ err: error }, 'stripe webhook refused: bad signature');
        throw new AppError(400, 'payment_signature_invalid');
      }

      const now = new Date();
      const log = { event_id: event.id, type: event.type };
      const logOutcome = ({ orderId, outcome }: { orderId: string | null; outcome: SessionEventOutcome }) => {
        const fields = { ...log, order_id: orderId, outcome };
        // Money taken without time given, or not ours: the operator has to look at it.
        if (NEEDS_OPERATOR.has(outcome)) request.log.warn(fields, 'stripe payment needs the operator');
        else request.log.info(fields, 'stripe event handled');
      };
      switch (event.type) {
        case 'checkout.session.completed': {
          // Cards are paid now; Alipay and WeChat Pay may still be pending (async_payment_* follows).
          const session = event.data.object;
          logOutcome(await handleSession(event, session, session.payment_status === 'paid', now));
          break;
        }
        case 'checkout.session.async_payment_succeeded':
          logOutcome(await handleSession(event, event.data.object, true, now));
          break;
        case 'checkout.session.async_payment_failed': {
          const result = await handleSession(event, event.data.object, false, now);
          request.log.warn(
            { ...log, order_id: result.orderId },
            'stripe payment failed; the order stays as it is',
          );
          break;
        }
        case 'charge.refunded': {
          const charge = event.data.object;
          const done = await recordMoneyNotice(
            db,
            {
              provider: 'stripe',
              event: { id: event.id, type: event.type },
              kind: 'refunded',
              objectId: charge.id,
              providerPaymentId: idOf(charge.payment_intent),
              amount: charge.amount_refunded,
              currency: charge.currency,
            },
            now,
          );
          request.log[done === 'noted' ? 'warn' : 'info']({ ...log, done }, 'stripe refund noted');
          break;
        }
        case 'charge.dispute.created': {
          const dispute = event.data.object;
          await recordMoneyNotice(
            db,
            {
              provider: 'stripe',
              event: { id: event.id, type: event.type },
              kind: 'dispute',
              objectId: dispute.id,
              providerPaymentId: idOf(dispute.payment_intent),
              amount: dispute.amount,
              currency: dispute.currency,
              detail: { reason: dispute.reason, status: dispute.status, charge: idOf(dispute.charge) },
            },
            now,
          );
          // The buyer's bank is taking the money back: the operator has days to answer at Stripe.
          request.log.warn(log, 'stripe dispute opened; needs the operator');
          break;
        }
        default:
          request.log.info(log, 'stripe event ignored');
      }
      return reply.code(200).type('application/json; charset=utf-8').send({ received: true });
    },
  );
}
