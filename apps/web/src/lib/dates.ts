import { formatDateTime } from '@skyway/shared/dates';

/** The user's expiry as `YYYY-MM-DD HH:mm:ss`, or null when `expire_user` is 0 (never had access). */
export function formatExpiry(expireUser: number | undefined): string | null {
  if (!expireUser) return null;
  return formatDateTime(expireUser) || null;
}
