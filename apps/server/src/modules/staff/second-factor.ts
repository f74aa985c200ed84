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
/**
 * 24 characters of 5 bits: 120 random bits, past the 112 at which a lookup secret may be kept as a
 * plain SHA-256 (ASVS 5.0, 6.5.2). No search over a copied database can find one, so a slow salted
 * hash per code, and its cost on every try, is not needed.
 */
const RECOVERY_CODE_CHARS = 24;
/** What a code of `newRecoveryCodes` holds; the codes given before held 50. */
export const RECOVERY_CODE_BITS = RECOVERY_CODE_CHARS * 5;

/** `RECOVERY_CODE_COUNT` codes of 120 random bits each, shown as six groups of four: `xxxx-xxxx-…`. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = [...randomBytes(RECOVERY_CODE_CHARS)].map((byte) => ALPHABET[byte % 32]).join('');
    return (chars.match(/.{4}/g) ?? []).join('-');
  });
}

/**
 * What the database keeps of a recovery code. Case, spaces and dashes do not matter when typed, nor
 * the look-alikes the alphabet leaves out (o for 0, i and l for 1). The codes of 50 bits given before
 * (`xxxxx-xxxxx`) are hashed the same way, so they keep working until used.
 */
export function hashRecoveryCode(code: string): string {
  const normalized = code.toLowerCase().replace(/[\s-]/g, '').replace(/o/g, '0').replace(/[il]/g, '1');
  return createHash('sha256').update(`recovery:${normalized}`).digest('hex');
}
