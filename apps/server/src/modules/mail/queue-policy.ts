import type { MailTemplate } from './templates.ts';

/** PRODUCT.md section 7: a message that keeps failing this long is given up and shown for attention. */
export const RETRY_WINDOW_MS = 2 * 24 * 60 * 60 * 1000;

/**
 * How long a claim keeps other instances off a row: longer than one attempt can take (nodemailer's
 * connection, greeting and socket timeouts), so a row is never sent twice at once. A row whose
 * instance died is claimable again once its lease runs out.
 */
export const LEASE_MS = 2 * 60 * 1000;

const FIRST_RETRY_MS = 15_000;
const LONGEST_RETRY_MS = 60 * 60 * 1000;

/** The wait after the nth failed attempt: 15 s, doubling, at most an hour. */
export function retryDelayMs(attempts: number): number {
  return Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), LONGEST_RETRY_MS);
}

/**
 * Lower goes first. Codes, and the notice that answers a registration code request for a taken
 * address, have someone waiting at a form; notices tell of a change already made, a staff
 * invitation of a link that lasts a day, and a ticket's reply of an answer someone waits for; the
 * inactive-account warning gives a week; expiry reminders and notices come in thousands at a time
 * and are sent after everything else.
 */
export const MAIL_PRIORITY: Record<MailTemplate, number> = {
  code_register: 0,
  code_forget: 0,
  code_email: 0,
  account_exists: 0,
  password_changed: 1,
  email_changed: 1,
  inactive_warning: 2,
  staff_invite: 1,
  // Staff alerts: an incident is under way, ahead of customers' bulk mail.
  staff_alert: 1,
  // A day's summary: nothing urgent in it.
  staff_digest: 2,
  expiry_reminder: 3,
  expiry_ended: 3,
  notice: 3,
  ticket_reply: 1,
  // Someone just paid and looks for the word that it went through.
  payment_confirmed: 1,
};
