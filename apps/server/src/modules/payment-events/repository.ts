import type { Database } from '../../db/client.ts';
import { paymentEvents } from '../../db/schema/index.ts';

/**
 * Records a provider's notification (a Stripe event, an App Store notificationUUID) once; false when
 * it was recorded before, so a repeated or concurrent delivery stops here. Inside the transaction
 * that acts on it, the record and the action stand or fall together.
 */
export async function recordPaymentEvent(
  db: Database,
  provider: string,
  event: { id: string; type: string },
  orderId: string | null,
  now: Date,
): Promise<boolean> {
  const rows = await db
    .insert(paymentEvents)
    .values({ provider, eventId: event.id, type: event.type, orderId, receivedAt: now })
    .onConflictDoNothing()
    .returning({ eventId: paymentEvents.eventId });
  return rows.length === 1;
}
