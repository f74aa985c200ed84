import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { COMMON_PASSWORDS } from './common-passwords.ts';
import { createGate } from './gate.ts';
import { lowPriorityThreads } from './low-priority-threads.ts';

// argon2id, m = 19 MiB, t = 2, p = 1 (PRODUCT.md section 3). 2 is Algorithm.Argon2id, a const enum
// that isolated modules cannot import.
export const ARGON2ID = { algorithm: 2, memoryCost: 19 * 1024, timeCost: 2, parallelism: 1 } as const;

/** PRODUCT.md section 3: sign-in failures allowed per address in 15 minutes and per client address in an hour. */
export const SIGN_IN_TRIES_PER_ADDRESS = 10;
export const SIGN_IN_TRIES_PER_IP = 100;

/**
 * Hashes computed at once: one core fewer than the machine has, each on a thread of its own below
 * the process's priority (lib/low-priority-threads.ts). Each hash keeps a core busy for its whole
 * length: left to libuv's 4 threads at full priority, a burst of sign-ins took every core and slowed
 * every other call (and the database beside it). Hashes beyond these wait their turn, in order.
 */
export const HASHES_AT_ONCE = Math.max(1, availableParallelism() - 1);
const hashing = createGate(HASHES_AT_ONCE);
const threads = lowPriorityThreads(createRequire(import.meta.url).resolve('@node-rs/argon2'), HASHES_AT_ONCE);

export const hashPassword = (password: string) =>
  hashing.run(() => threads.call<string>('hashSync', [password, ARGON2ID]));

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await hashing.run(() => threads.call<boolean>('verifySync', [passwordHash, password]));
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
