import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { EMAIL_CODE_LENGTH, EMAIL_CODE_RESEND_SECONDS, type EmailCodeScene } from '@skyway/shared/accounts';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../http/errors.ts';
import type { Counters } from '../limits/counters.ts';
import { insertCode, latestOpenCode, markUsed, spendTry } from './repository.ts';

/** PRODUCT.md section 3: a code lives 10 minutes and allows 5 tries; at most 10 per address and 30 per client address a day. */
export const CODE_LIFETIME_MINUTES = 10;
export const CODE_MAX_TRIES = 5;
export const CODES_PER_ADDRESS_PER_DAY = 10;
export const CODES_PER_IP_PER_DAY = 30;
const DAY_SECONDS = 24 * 60 * 60;

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

function hashCode(email: string, scene: EmailCodeScene, code: string): string {
  return createHash('sha256').update(`${email}\n${scene}\n${code}`).digest('hex');
}

function newCode(): string {
  return String(randomInt(10 ** EMAIL_CODE_LENGTH)).padStart(EMAIL_CODE_LENGTH, '0');
}

async function within(
  counters: Counters,
  key: string,
  windowSeconds: number,
  limit: number,
  reason: 'code_resend_too_soon' | 'too_many_requests',
) {
  const { count, resetIn } = await counters.hit(key, windowSeconds);
  if (count > limit) throw new AppError(429, reason, { retryAfter: resetIn });
}

/**
 * The limits on asking for a code, applied whether or not the address has an account, so that
 * they reveal nothing: one per (address, scene) a minute, then the daily caps.
 */
export async function checkCodeLimits(
  counters: Counters,
  request: { email: string; scene: EmailCodeScene; ip: string },
): Promise<void> {
  const email = normalizeEmail(request.email);
  await within(
    counters,
    `code:resend:${request.scene}:${email}`,
    EMAIL_CODE_RESEND_SECONDS,
    1,
    'code_resend_too_soon',
  );
  await within(
    counters,
    `code:day:address:${email}`,
    DAY_SECONDS,
    CODES_PER_ADDRESS_PER_DAY,
    'too_many_requests',
  );
  await within(counters, `code:day:ip:${request.ip}`, DAY_SECONDS, CODES_PER_IP_PER_DAY, 'too_many_requests');
}

export interface IssuedCode {
  code: string;
  expiresAt: Date;
}

/** Stores a new code for (address, scene) and returns it, to be mailed; only its hash is kept. */
export async function issueCode(
  db: Database,
  request: { email: string; scene: EmailCodeScene; ip: string; now: Date },
): Promise<IssuedCode> {
  const email = normalizeEmail(request.email);
  const code = newCode();
  const expiresAt = new Date(request.now.getTime() + CODE_LIFETIME_MINUTES * 60_000);
  await insertCode(db, {
    email,
    scene: request.scene,
    codeHash: hashCode(email, request.scene, code),
    requestIp: request.ip,
    createdAt: request.now,
    expiresAt,
  });
  return { code, expiresAt };
}

/**
 * Uses the code for (address, scene) or throws the 400 the caller sees. Every guess spends a try
 * first, so the sixth guess fails even when it is right; a right guess uses the code up.
 */
export async function useCode(
  db: Database,
  request: { email: string; scene: EmailCodeScene; code: string; now: Date },
): Promise<void> {
  const email = normalizeEmail(request.email);
  const latest = await latestOpenCode(db, email, request.scene);
  if (!latest) throw new AppError(400, 'code_invalid', { field: 'email_code' });
  if (latest.expiresAt.getTime() <= request.now.getTime()) {
    throw new AppError(400, 'code_expired', { field: 'email_code' });
  }
  if (!(await spendTry(db, latest.id, CODE_MAX_TRIES)))
    throw new AppError(400, 'code_invalid', { field: 'email_code' });
  const expected = Buffer.from(latest.codeHash);
  const given = Buffer.from(hashCode(email, request.scene, request.code.trim()));
  if (!timingSafeEqual(expected, given) || !(await markUsed(db, latest.id, request.now))) {
    throw new AppError(400, 'code_invalid', { field: 'email_code' });
  }
}
