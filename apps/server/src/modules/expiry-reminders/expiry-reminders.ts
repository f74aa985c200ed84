import { DEFAULT_LANGUAGE, isLanguage } from '@skyway/shared/languages';
import { reminderDays } from '@skyway/shared/schemas/admin/settings';
import type { Database } from '../../db/client.ts';
import { customerTime } from '../../lib/customer-time.ts';
import type { MailMessage } from '../mail/mailer.ts';
import { planName } from '../mail/plan-names.ts';
import { type CustomerMailer, queueCustomerMessages } from '../telegram/customer-messages.ts';
import { readSettings } from '../settings/repository.ts';
import { unsubscribeUrl } from '../unsubscribe/tokens.ts';
import { forgetReminders, recordDueReminders, type RemindedAccount } from './repository.ts';

export const EXPIRY_REMINDERS_JOB = 'expiry-reminders';

export interface ExpiryRemindersDeps {
  db: Database;
  mailer: CustomerMailer;
  now: Date;
  /** The site's address, for the links to /buy and to unsubscribe. */
  origin: string;
  subscriptionKey: string;
  /** Reminders recorded and mailed at a time; tests make it small. */
  batchSize?: number;
}

export interface ExpiryRemindersResult {
  /** Reminders handed to the mail outbox, per number of days before the end (0: at the end). */
  sent: Record<number, number>;
  /** Reminders whose mail could not be written: taken back, so the next run sends them. */
  unmailed: number;
}

/** Few enough that a batch's bodies (each its own: links, time) take little memory; enough to keep the run short. */
const BATCH_SIZE = 250;
/** A reminder whose moment passed longer ago than this (the job was down) is not sent any more. */
const CATCH_UP_MS = 12 * 60 * 60 * 1000;

function reminder(deps: ExpiryRemindersDeps, account: RemindedAccount, days: number): MailMessage {
  const language = isLanguage(account.language) ? account.language : DEFAULT_LANGUAGE;
  const link = unsubscribeUrl(deps.origin, deps.subscriptionKey, account.id);
  return {
    to: account.email,
    template: days > 0 ? 'expiry_reminder' : 'expiry_ended',
    language,
    params: {
      expire_time: customerTime(new Date(account.expire_at)),
      plan: planName(language, account.period),
      connections: account.connections,
      buy_link: `${deps.origin}/buy`,
      unsubscribe_link: link,
    },
    userId: account.id,
    unsubscribeUrl: link,
    aboutEnd: new Date(account.expire_at),
  };
}

/**
 * Mails the expiry reminders due now (PRODUCT.md section 7): those of each number of days of the
 * `reminder_days` setting before the end of access, and the one at the end, a batch at a time:
 * each batch's reminders are recorded (once per account, end and number of days, whatever other
 * instance runs this too), then mailed in one write. A batch whose mail cannot be written is taken
 * back, and the run stops there: the next one sends it. Memory stays flat however many are due.
 */
export async function runExpiryReminders(deps: ExpiryRemindersDeps): Promise<ExpiryRemindersResult> {
  const { db, now, batchSize = BATCH_SIZE } = deps;
  const { reminder_days } = await readSettings(db);
  const result: ExpiryRemindersResult = { sent: {}, unmailed: 0 };
  for (const days of [...reminderDays(reminder_days), 0]) {
    result.sent[days] = 0;
    for (;;) {
      const batch = await recordDueReminders(db, { days, now, catchUpMs: CATCH_UP_MS, limit: batchSize });
      if (batch.length === 0) break;
      try {
        await queueCustomerMessages(
          db,
          deps.mailer,
          'expiry_reminder',
          batch.map((account) => reminder(deps, account, days)),
          now,
        );
        deps.mailer.deliverSoon();
      } catch {
        await forgetReminders(db, batch, days);
        result.unmailed += batch.length;
        return result;
      }
      result.sent[days] += batch.length;
      if (batch.length < batchSize) break;
    }
  }
  return result;
}
