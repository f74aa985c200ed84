import { randomInt } from 'node:crypto';

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** `20261122143015` + 8 random digits: sortable by time, readable over the phone, not guessable. */
export function newOrderId(now: Date): string {
  const stamp =
    `${now.getUTCFullYear()}${pad(now.getUTCMonth() + 1)}${pad(now.getUTCDate())}` +
    `${pad(now.getUTCHours())}${pad(now.getUTCMinutes())}${pad(now.getUTCSeconds())}`;
  return stamp + pad(randomInt(0, 100_000_000), 8);
}
