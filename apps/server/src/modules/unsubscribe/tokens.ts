import { createHmac, timingSafeEqual } from 'node:crypto';

/** Keeps these tokens apart from anything else made with the same key. */
const LABEL = 'skyway unsubscribe v1';
const TOKEN = /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{22})$/;

const mac = (key: string, userId: string) =>
  createHmac('sha256', key).update(`${LABEL}\0${userId}`).digest().subarray(0, 16);

/**
 * The account's unsubscribe token: its id and a MAC of it under the server's key, so that a link
 * works without signing in, for its own account only, and cannot be made for another. It never
 * expires: an old reminder's link still unsubscribes.
 */
export function unsubscribeToken(key: string, userId: string): string {
  const id = Buffer.from(userId.replaceAll('-', ''), 'hex').toString('base64url');
  return `${id}.${mac(key, userId).toString('base64url')}`;
}

/** The account a token was made for; undefined for anything else. */
export function accountOfUnsubscribeToken(key: string, token: string): string | undefined {
  const match = TOKEN.exec(token);
  if (!match?.[1] || !match[2]) return undefined;
  const hex = Buffer.from(match[1], 'base64url').toString('hex');
  if (hex.length !== 32) return undefined;
  const userId = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  const given = Buffer.from(match[2], 'base64url');
  const expected = mac(key, userId);
  return given.length === expected.length && timingSafeEqual(given, expected) ? userId : undefined;
}

/** Where the account's reminders and notices say it can unsubscribe (and its List-Unsubscribe). */
export const unsubscribeUrl = (origin: string, key: string, userId: string) =>
  `${origin}/unsubscribe/${unsubscribeToken(key, userId)}`;
