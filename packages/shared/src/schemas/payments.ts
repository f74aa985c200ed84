import { z } from 'zod';

/** `/web/pay/apple/notify`: an App Store Server Notification V2, Apple's signed payload. */
export const appleNotificationRequest = z.object({ signedPayload: z.string().min(1) });

/** Reply of `/web/pay/stripe/notify` (Stripe's own format, not the envelope): the event is taken. */
export const stripeAcknowledgement = z.object({ received: z.literal(true) });
