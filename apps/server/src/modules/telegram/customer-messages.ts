import { inArray } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { telegramLinks } from '../../db/schema/index.ts';
import type { Mailer, MailMessage } from '../mail/mailer.ts';
import { type NewTelegramMessage, queueTelegramMessages } from './repository.ts';

/**
 * The messages a customer gets by mail and, once bound, by Telegram too, each with its place in
 * Telegram's queue (lower first: someone is waiting on a ticket's answer, or has just paid).
 */
const CUSTOMER_MESSAGE_PRIORITY = {
  payment_confirmed: 1,
  ticket_reply: 1,
  notice: 2,
  expiry_reminder: 3,
} as const;
export type CustomerMessageKind = keyof typeof CUSTOMER_MESSAGE_PRIORITY;

export type CustomerMailer = Pick<Mailer, 'queueBatch' | 'deliverSoon' | 'render'>;

/** A mail as a Telegram message: its subject, then its text, in the mail's language. */
export function telegramTextOf(mailer: Pick<Mailer, 'render'>, message: MailMessage): string {
  const { subject, text } = mailer.render(message);
  return `${subject}\n\n${text}`;
}

/**
 * Queues messages of one kind to customers, in the caller's transaction: to the Telegram chat of
 * each account bound to one, and by mail unless that account turned mail off for these kinds.
 * The Telegram text is the mail's subject and text in the account's language. Call the mailer's
 * `deliverSoon` once committed; the bot's worker sends Telegram's within its limits.
 */
export async function queueCustomerMessages(
  within: Database,
  mailer: CustomerMailer,
  kind: CustomerMessageKind,
  messages: MailMessage[],
  now: Date,
): Promise<void> {
  const userIds = messages.flatMap((message) => (message.userId ? [message.userId] : []));
  const links =
    userIds.length === 0
      ? []
      : await within.select().from(telegramLinks).where(inArray(telegramLinks.userId, userIds));
  const linkOf = new Map(links.map((link) => [link.userId, link]));
  const byTelegram: NewTelegramMessage[] = [];
  const byMail: MailMessage[] = [];
  for (const message of messages) {
    const link = message.userId ? linkOf.get(message.userId) : undefined;
    if (link) {
      byTelegram.push({
        chatId: link.chatId,
        userId: link.userId,
        kind,
        text: telegramTextOf(mailer, message),
        priority: CUSTOMER_MESSAGE_PRIORITY[kind],
      });
    }
    if (!link?.mailOff) byMail.push(message);
  }
  await mailer.queueBatch(within, byMail);
  await queueTelegramMessages(within, byTelegram, now);
}
