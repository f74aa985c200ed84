import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { COMMON_PASSWORDS } from './common-passwords.ts';

// argon2id, m = 19 MiB, t = 2, p = 1 (PRODUCT.md section 3). The hashing runs on libuv's thread
// pool, so a burst of sign-ins never blocks the event loop. 2 is Algorithm.Argon2id, a const enum
// that isolated modules cannot import.
const ARGON2ID = { algorithm: 2, memoryCost: 19 * 1024, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string) => hash(password, ARGON2ID);

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let decoy: Promise<string> | undefined;

/**
 * A hash of no one's password, checked when an address has no account, so that the reply to a
 * sign-in takes as long either way and its timing tells nothing.
 */
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword(randomBytes(16).toString('hex'));
  return decoy;
}

/** A password found in leaked-password lists, or made of the address itself, is refused. */
export function isCommonPassword(password: string, email: string): boolean {
  const lowered = password.toLowerCase();
  const local = email.trim().toLowerCase().split('@')[0] ?? '';
  return (
    COMMON_PASSWORDS.has(lowered) ||
    lowered === email.trim().toLowerCase() ||
    (local.length >= 4 && lowered === local)
  );
}
