/** A 10-digit number is a time in seconds; anything longer is milliseconds (spec section 3). */
export function toDate(value: number | string | Date): Date {
  if (value instanceof Date) return value;
  const text = String(value).trim();
  if (/^\d{10}$/.test(text)) return new Date(Number(text) * 1000);
  if (/^\d+$/.test(text)) return new Date(Number(text));
  return new Date(text);
}

const pad = (n: number) => String(n).padStart(2, '0');

/** `YYYY-MM-DD HH:mm:ss` in the viewer's local time zone; empty for a missing or invalid time. */
export function formatDateTime(value: number | string | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const date = toDate(value);
  if (Number.isNaN(date.getTime())) return '';
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ` +
    `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
  );
}

/** Unix seconds of a time; 0 for none (the calls' way of saying "never"). */
export const toUnixSeconds = (date: Date | null) => (date ? Math.floor(date.getTime() / 1000) : 0);

/** The time of unix seconds; null for 0 (none), the inverse of toUnixSeconds. */
export const fromUnixSeconds = (seconds: number) => (seconds > 0 ? new Date(seconds * 1000) : null);
