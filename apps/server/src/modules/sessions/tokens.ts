import { randomBytes } from 'node:crypto';

/** A new session token: 256 random bits, base64url. The database keeps its hash (`hashToken`). */
export function newSessionToken(): string {
  return randomBytes(32).toString('base64url');
}
