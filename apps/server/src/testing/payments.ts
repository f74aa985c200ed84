import { eq } from 'drizzle-orm';
import { payments } from '../db/schema/index.ts';
import { type FulfilDeps, fulfilPayment } from '../modules/orders/fulfilment.ts';
import { newClientAddress, signedInUser, type TestApp, webCaller } from './test-app.ts';

/** What crediting a payment needs, from a running test app: its database and its confirmations. */
export const fulfilDeps = (t: TestApp): FulfilDeps => ({
  db: t.database.db,
  confirmations: t.app.paymentConfirmations,
});

/**
 * A new account's month of 2 connections, paid through the sandbox: the payment's id. `short` fen
 * short makes it an `amount_mismatch`, a payment for the operator to deal with; `provider` credits it
 * as another provider's (a gateway's) would be.
 */
export async function sandboxPayment(t: TestApp, short = 0, provider = 'sandbox'): Promise<string> {
  const { token } = await signedInUser(t.database);
  const web = webCaller(() => t.app, newClientAddress);
  const order = (
    await web('/web/order/create', { period: 'month', connections: 2, pay_method: 'alipay' }, token)
  ).json().data as { order_id: string; amount: number };
  const paymentId = `pay_${order.order_id}`;
  await fulfilPayment(
    fulfilDeps(t),
    {
      provider,
      orderId: order.order_id,
      paymentId,
      amount: order.amount - short,
      currency: 'CNY',
    },
    new Date(),
  );
  const [row] = await t.database.db.select().from(payments).where(eq(payments.providerPaymentId, paymentId));
  if (!row) throw new Error('the payment was not recorded');
  return row.id;
}
