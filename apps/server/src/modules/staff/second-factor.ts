import { createHash, randomBytes } from 'node:crypto';
import { generateSecret, generateURI, verify } from 'otplib';
import { RECOVERY_CODE_COUNT, TOTP_DIGITS } from '@skyway/shared/staff';

const PERIOD_SECONDS = 30;

export const newTotpSecret = () => generateSecret();

/** The `otpauth://` URI that an authenticator app scans. */
export const totpUri = (issuer: string, email: string, secret: string) =>
  generateURI({ issuer, label: email, secret, digits: TOTP_DIGITS, period: PERIOD_SECONDS });

/**
 * The time step of a good code, or undefined. One step either side is accepted (a phone's clock
 * a little off, a code typed as it changed); a step at or before `lastStep` never is, so a code works
 * once even inside its window.
 */
export async function checkTotp(
  secret: string,
  code: string,
  lastStep: number | null,
  now: Date,
): Promise<number | undefined> {
  const result = await verify({
    secret,
    token: code,
    digits: TOTP_DIGITS,
    period: PERIOD_SECONDS,
    epoch: Math.floor(now.getTime() / 1000),
    epochTolerance: PERIOD_SECONDS,
    ...(lastStep === null ? {} : { afterTimeStep: lastStep }),
  });
  return result.valid && 'timeStep' in result ? result.timeStep : undefined;
}

// Crockford's base32 without look-alikes: easy to read off a sheet of paper.
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/** `RECOVERY_CODE_COUNT` codes of 50 random bits each, shown as `xxxxx-xxxxx`. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = [...randomBytes(10)].map((byte) => ALPHABET[byte % 32]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/** What the database keeps of a recovery code: case, spaces and dashes do not matter when typed. */
export function hashRecoveryCode(code: string): string {
  const normalized = code.toLowerCase().replace(/[\s-]/g, '');
  return createHash('sha256').update(`recovery:${normalized}`).digest('hex');
}
