import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { hash, verify } from '@node-rs/argon2';
import { COMMON_PASSWORDS } from './common-passwords.ts';
import { createGate } from '../../lib/gate.ts';

// argon2id, m = 19 MiB, t = 2, p = 1 (PRODUCT.md section 3). 2 is Algorithm.Argon2id, a const enum
// that isolated modules cannot import.
const ARGON2ID = { algorithm: 2, memoryCost: 19 * 1024, timeCost: 2, parallelism: 1 } as const;

/**
 * Hashes computed at once: one core fewer than the machine has. The hashing runs on libuv's thread
 * pool, off the event loop, but each hash keeps a core busy for its whole length: left to the pool's
 * 4 threads, a burst of sign-ins would take every core and slow every other call (and the database
 * beside it). Hashes beyond these wait their turn, in order.
 */
export const HASHES_AT_ONCE = Math.max(1, availableParallelism() - 1);
const hashing = createGate(HASHES_AT_ONCE);

export const hashPassword = (password: string) => hashing.run(() => hash(password, ARGON2ID));

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await hashing.run(() => verify(passwordHash, password));
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
