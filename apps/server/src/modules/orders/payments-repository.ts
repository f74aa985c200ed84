import type { Database } from '../../db/client.ts';
import { payments } from '../../db/schema/index.ts';

/**
 * Records money a provider took for an order, once per provider payment id (its unique key); false
 * when that payment was recorded before. `outcome` says what became of it (fulfilment.ts).
 */
export async function recordPayment(
  db: Database,
  payment: {
    orderId: string;
    provider: string;
    providerPaymentId: string;
    amount: number;
    currency: string;
    outcome: string;
    createdAt: Date;
  },
): Promise<boolean> {
  const rows = await db.insert(payments).values(payment).onConflictDoNothing().returning({ id: payments.id });
  return rows.length === 1;
}
