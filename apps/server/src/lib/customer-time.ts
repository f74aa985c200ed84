/** The customers' clock: UTC+8 (China, Hong Kong, Taiwan). */
const CUSTOMER_OFFSET_MS = 8 * 60 * 60 * 1000;

/** `YYYY-MM-DD HH:mm:ss (UTC+8)`: the customers' own clock, and saying which it is. */
export function customerTime(date: Date): string {
  const shifted = new Date(date.getTime() + CUSTOMER_OFFSET_MS).toISOString();
  return `${shifted.slice(0, 10)} ${shifted.slice(11, 19)} (UTC+8)`;
}
