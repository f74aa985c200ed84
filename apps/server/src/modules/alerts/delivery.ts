import { DEFAULT_LANGUAGE, isLanguage, type Language } from '@skyway/shared/languages';
import type { Database } from '../../db/client.ts';
import type { Mailer, MailMessage } from '../mail/mailer.ts';
import {
  queueTelegramMessages,
  STAFF_ALERT_MESSAGE,
  type NewTelegramMessage,
} from '../telegram/repository.ts';
import { telegramTextOf } from '../telegram/customer-messages.ts';
import type { AlertMember } from './preferences.ts';

export type AlertMailer = Pick<Mailer, 'queueBatch' | 'deliverSoon' | 'render'>;

export const languageOf = (member: AlertMember): Language =>
  isLanguage(member.language) ? member.language : DEFAULT_LANGUAGE;

/**
 * Queues each member's messages, in the caller's transaction, on the channel they chose: their
 * Telegram chat while bound (the mail's subject and text, first in Telegram's queue), else mail.
 * Call the mailer's `deliverSoon` once committed.
 */
export async function queueForMembers(
  within: Database,
  mailer: AlertMailer,
  messages: { member: AlertMember; mail: MailMessage }[],
  now: Date,
): Promise<void> {
  const byTelegram: NewTelegramMessage[] = [];
  const byMail: MailMessage[] = [];
  for (const { member, mail } of messages) {
    if (member.chatId === undefined) {
      byMail.push(mail);
      continue;
    }
    byTelegram.push({
      chatId: member.chatId,
      kind: STAFF_ALERT_MESSAGE,
      text: telegramTextOf(mailer, mail),
      priority: 1,
    });
  }
  await mailer.queueBatch(within, byMail);
  await queueTelegramMessages(within, byTelegram, now);
}
