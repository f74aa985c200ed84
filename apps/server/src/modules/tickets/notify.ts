import { DEFAULT_LANGUAGE, isLanguage } from '@skyway/shared/languages';
import type { Database } from '../../db/client.ts';
import type { TicketRow } from '../../db/schema/index.ts';
import type { Mailer } from '../mail/mailer.ts';
import { queueCustomerMessages } from '../telegram/customer-messages.ts';
import { ticketCustomer } from './repository.ts';

export interface TicketNotifyDeps {
  db: Database;
  mailer: Mailer;
  /** Where the site is: the link in the message opens the ticket in the console. */
  siteOrigin: string;
}

/** Where the console shows a ticket's thread. */
export const ticketLink = (siteOrigin: string, ticketId: string) =>
  `${siteOrigin}/support?ticket=${encodeURIComponent(ticketId)}`;

/**
 * Tells the customer that staff replied to their ticket: the one place every channel of that news
 * goes through (mail, and their Telegram chat once bound; see queueCustomerMessages). Called only for
 * replies the customer may see, never for internal notes.
 */
export async function notifyTicketReply(
  deps: TicketNotifyDeps,
  ticket: Pick<TicketRow, 'id' | 'userId' | 'subject'>,
  reply: string,
): Promise<void> {
  const customer = await ticketCustomer(deps.db, ticket.userId);
  if (!customer) return;
  const message = {
    to: customer.email,
    template: 'ticket_reply',
    language: isLanguage(customer.language) ? customer.language : DEFAULT_LANGUAGE,
    userId: ticket.userId,
    params: { subject: ticket.subject, reply, link: ticketLink(deps.siteOrigin, ticket.id) },
  } as const;
  await queueCustomerMessages(deps.db, deps.mailer, 'ticket_reply', [message], new Date());
  deps.mailer.deliverSoon();
}
