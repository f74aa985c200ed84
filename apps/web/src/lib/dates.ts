import { formatDateTime } from '@skyway/shared/dates';

/** The user's expiry as `YYYY-MM-DD HH:mm:ss`, or null when `expire_user` is 0 (never had access). */
export function formatExpiry(expireUser: number | undefined): string | null {
  if (!expireUser) return null;
  return formatDateTime(expireUser) || null;
}

/** A time the calls give in unix seconds, as `YYYY-MM-DD HH:mm:ss` in the viewer's time zone. */
export function formatUnixTime(seconds: number): string {
  return formatDateTime(new Date(seconds * 1000));
}
