/**
 * Where a message stands. `pending` waits for (another) attempt; `sent` SMTP accepted; `logged` went
 * to the log because no SMTP is configured (the local mode's delivery); `failed` kept failing for the
 * whole retry window and was given up; `expired` is a code mail whose code ran out before it could be
 * delivered; `withheld` was written only so that a request for an address that gets nothing writes
 * what one that gets a mail writes, and is never delivered; `cancelled` was no longer wanted before it
 * went out (a reminder to an account that unsubscribed).
 */
export const MAIL_STATUSES = [
  'pending',
  'sent',
  'logged',
  'failed',
  'expired',
  'withheld',
  'cancelled',
] as const;
export type MailStatus = (typeof MAIL_STATUSES)[number];
