import { DEFAULT_LANGUAGE, isLanguage } from '@skyway/shared/languages';
import type { Database } from '../../db/client.ts';
import type { NoticeRow } from '../../db/schema/index.ts';
import type { MailMessage } from '../mail/mailer.ts';
import { type CustomerMailer, queueCustomerMessages } from '../telegram/customer-messages.ts';
import { unsubscribeUrl } from '../unsubscribe/tokens.ts';
import {
  advanceMailing,
  lockNoticeToMail,
  type NoticeRecipient,
  nextRecipients,
  noticesToMail,
} from './notice-mail-repository.ts';

export const NOTICE_MAIL_JOB = 'notice-mail';

export interface NoticeMailDeps {
  db: Database;
  mailer: CustomerMailer;
  now: Date;
  /** The site's address, for the unsubscribe links. */
  origin: string;
  subscriptionKey: string;
  /** Accounts mailed at a time; tests make it small. */
  batchSize?: number;
}

/** As the expiry reminders: a batch's bodies (each with its own link) take little memory. */
const BATCH_SIZE = 250;

function noticeMail(deps: NoticeMailDeps, notice: NoticeRow, account: NoticeRecipient): MailMessage {
  const language = isLanguage(account.language) ? account.language : DEFAULT_LANGUAGE;
  const link = unsubscribeUrl(deps.origin, deps.subscriptionKey, account.id);
  return {
    to: account.email,
    template: 'notice',
    language,
    params: { title: notice.title[language], body: notice.body[language], unsubscribe_link: link },
    userId: account.id,
    unsubscribeUrl: link,
  };
}

/**
 * Mails the published notices marked for mail to their audience (PRODUCT.md section 7), a batch at
 * a time. Each batch is one transaction: the notice row locked (an instance that finds it locked
 * leaves it to the one mailing it), the next accounts after the last one mailed, their messages
 * written to the outbox, and the position moved on. So each account gets a notice once, whatever
 * the number of instances, runs or crashes; the outbox then delivers them after every other mail.
 * A notice taken down stops being mailed. Answers how many messages it wrote.
 */
export async function runNoticeMail(deps: NoticeMailDeps): Promise<{ mailed: number }> {
  const { db, now, batchSize = BATCH_SIZE } = deps;
  let mailed = 0;
  for (const { id } of await noticesToMail(db, now)) {
    for (;;) {
      const { count, more } = await db.transaction(async (tx) => {
        const notice = await lockNoticeToMail(tx, id, now);
        if (!notice) return { count: 0, more: false };
        const batch = await nextRecipients(tx, notice, now, batchSize);
        await queueCustomerMessages(
          tx,
          deps.mailer,
          'notice',
          batch.map((account) => noticeMail(deps, notice, account)),
          now,
        );
        const last = batch.length < batchSize;
        await advanceMailing(tx, notice, {
          last: batch.at(-1)?.id,
          count: batch.length,
          finishedAt: last ? now : null,
        });
        return { count: batch.length, more: !last };
      });
      mailed += count;
      if (count > 0) deps.mailer.deliverSoon();
      if (!more) break;
    }
  }
  return { mailed };
}
