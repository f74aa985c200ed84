import { formatDateTime } from '@skyway/shared/dates';

/** `YYYY-MM-DD HH:mm:ss` in the viewer's time, or a dash. */
export const when = (iso: string | null | undefined) => (iso ? formatDateTime(iso) : '—');

/** An amount in a currency's minor unit (fen, cents), with its currency. */
export const money = (amount: number, currency: string) =>
  `${currency.toUpperCase() === 'CNY' ? '¥' : `${currency.toUpperCase()} `}${(amount / 100).toFixed(2)}`;

/** A signed change of time in days and hours. */
export function duration(seconds: number): string {
  const sign = seconds < 0 ? '−' : '+';
  const total = Math.abs(seconds);
  const days = Math.floor(total / 86_400);
  const hours = Math.floor((total % 86_400) / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  return `${sign}${days ? `${days}d ` : ''}${hours ? `${hours}h ` : ''}${minutes || (!days && !hours) ? `${minutes}m` : ''}`.trim();
}
