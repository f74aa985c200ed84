import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { noFields } from '@skyway/shared/schemas/envelope';
import { appleNotificationRequest } from '@skyway/shared/schemas/payments';
import { ok, replies } from '../../http/envelope.ts';
import { AppError } from '../../http/errors.ts';
import { type AppleHandler, processAppleNotification } from './apple.ts';
import { AppleNotificationRefused } from './apple-verify.ts';

export const APPLE_NOTIFY_PATH = '/web/pay/apple/notify';

/** A notification is three JWS with their certificate chains: some 15 kB; this leaves room. */
const NOTIFY_BODY_LIMIT = 256 * 1024;

/**
 * App Store Server Notifications V2 (PRODUCT.md: `/web/pay/apple/notify`), registered only when
 * APPLE_BUNDLE_ID is set. Apple signs the payload itself, so the spec's MD5 signing does not apply
 * and no user is signed in. A 200 tells Apple to stop (a duplicate too); a payload that fails
 * verification is a 400 that changes nothing (Apple's retries of it would fail the same way); any
 * other failure (the database, an unknown product) is a 500 and Apple delivers again later.
 */
export async function appleRoutes(app: FastifyInstance, options: { handler: AppleHandler }): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  routes.post(
    APPLE_NOTIFY_PATH,
    {
      // Outside the per-address call ceiling: Apple sends bursts from a few addresses, each signed.
      config: { auth: 'public', signed: false, ceiling: false },
      bodyLimit: NOTIFY_BODY_LIMIT,
      schema: { body: appleNotificationRequest, response: replies(noFields) },
    },
    async (request) => {
      try {
        const result = await processAppleNotification(
          options.handler,
          request.body.signedPayload,
          new Date(),
        );
        const log = {
          notification_uuid: result.notificationUUID,
          type: result.type,
          subtype: result.subtype,
          outcome: result.outcome,
          user_id: result.userId,
          transaction_id: result.transactionId,
        };
        if (result.outcome === 'no_account')
          request.log.warn(log, 'app store notification for no known account');
        else request.log.info(log, 'app store notification');
        return ok(request, {});
      } catch (error) {
        if (error instanceof AppleNotificationRefused) {
          request.log.warn({ err: error }, 'app store notification refused');
          throw new AppError(400, 'app_store_notification_invalid');
        }
        throw error;
      }
    },
  );
}
