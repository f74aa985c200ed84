import { randomBytes } from 'node:crypto';
import { normalizeRedeemCode, REDEEM_CODE_ALPHABET, REDEEM_CODE_LENGTH } from '@skyway/shared/redeem-codes';
import { hashToken } from '../../lib/token-hash.ts';

const SIZE = REDEEM_CODE_ALPHABET.length;
// The largest multiple of the alphabet's size a byte can reach: bytes from it up are thrown away, so
// that every character is equally likely.
const UNBIASED_BELOW = 256 - (256 % SIZE);

/**
 * `count` new codes from the system's random source, each REDEEM_CODE_LENGTH characters of the
 * alphabet, uniformly (rejection sampling of random bytes), in their stored form (no dashes).
 */
export function newRedeemCodes(count: number): string[] {
  const codes: string[] = [];
  let pool = randomBytes(Math.ceil(count * REDEEM_CODE_LENGTH * 1.1) + 64);
  let at = 0;
  for (let n = 0; n < count; n++) {
    let code = '';
    while (code.length < REDEEM_CODE_LENGTH) {
      if (at === pool.length) {
        pool = randomBytes(256);
        at = 0;
      }
      const byte = pool[at++] as number;
      if (byte < UNBIASED_BELOW) code += REDEEM_CODE_ALPHABET[byte % SIZE];
    }
    codes.push(code);
  }
  return codes;
}

/**
 * What the database keeps of a code and finds it by: the sha-256 of its normalized form. A code has
 * about 99 bits of entropy, so a fast hash is enough (docs/decisions/redeem-codes.md).
 */
export const hashRedeemCode = (typed: string) => hashToken(normalizeRedeemCode(typed));
