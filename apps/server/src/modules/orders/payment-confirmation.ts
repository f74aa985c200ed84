import { DEFAULT_LANGUAGE, isLanguage } from '@skyway/shared/languages';
import { formatYuan } from '@skyway/shared/money';
import type { Database } from '../../db/client.ts';
import type { OrderRow, UserRow } from '../../db/schema/index.ts';
import { customerTime } from '../../lib/customer-time.ts';
import { planName } from '../mail/plan-names.ts';
import { type CustomerMailer, queueCustomerMessages } from '../telegram/customer-messages.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** How credited payments reach their buyers (tests credit payments as a provider would). */
    paymentConfirmations: PaymentConfirmations;
  }
}

/** What a credited payment's word to the buyer needs: the mailer, and where the orders page is. */
export interface PaymentConfirmations {
  mailer: CustomerMailer;
  /** The site's address: the message links to the console's orders. */
  siteOrigin: string;
}

/**
 * Queues the buyer's payment confirmation (PRODUCT.md section 11) in the crediting transaction, so
 * that it is written once with the credit, and never without it: by mail, and in their Telegram chat
 * once bound, in the account's language. The caller runs the mailer's `deliverSoon` once committed.
 */
export async function queuePaymentConfirmation(
  tx: Database,
  confirmations: PaymentConfirmations,
  paid: { user: UserRow; order: OrderRow; expireAt: Date },
  now: Date,
): Promise<void> {
  const { user, order } = paid;
  const language = isLanguage(user.language) ? user.language : DEFAULT_LANGUAGE;
  const message = {
    to: user.email,
    template: 'payment_confirmed',
    language,
    userId: user.id,
    params: {
      order_id: order.id,
      plan: planName(language, order.period),
      connections: order.connections,
      amount: formatYuan(order.amount),
      expire_time: customerTime(paid.expireAt),
      orders_link: `${confirmations.siteOrigin}/order`,
    },
  } as const;
  await queueCustomerMessages(tx, confirmations.mailer, 'payment_confirmed', [message], now);
}
