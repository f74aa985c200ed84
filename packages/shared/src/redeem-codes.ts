import type { z } from 'zod';
import type { Period } from './plans.ts';
import type { redeemReplySchema } from './schemas/redeem-codes.ts';

/**
 * Redeem codes (兑换码, PRODUCT.md section 9): codes staff generate in batches, sold by operators on
 * card shops, each redeemed once by a customer for what a purchase would give or for days at the
 * account's connections.
 *
 * The alphabet leaves out what reads as something else (0 O, 1 I L): 8 digits and 23 letters.
 */
export const REDEEM_CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
/** 20 characters of 31: log2(31) × 20 ≈ 99 bits, shown in groups of 4 (ABCD-EFGH-…). */
export const REDEEM_CODE_LENGTH = 20;
export const REDEEM_CODE_GROUP = 4;

/** The most codes one batch may hold. */
export const REDEEM_BATCH_MAX = 100_000;
/** The most days a days grant may give. */
export const REDEEM_DAYS_MAX = 3660;

/** Wrong tries an account may make in an hour before its redemption is locked for the rest of it. */
export const REDEEM_WRONG_TRIES_PER_HOUR = 20;
/** Tries one address may make in an hour, whichever accounts they are for. */
export const REDEEM_TRIES_PER_ADDRESS_HOUR = 60;

/** What a batch's codes give: a purchase's (period × connections) or days at the account's connections. */
export type RedeemGrant =
  { kind: 'plan'; period: Period; connections: number } | { kind: 'days'; days: number };

/**
 * A code as typed or pasted, in the form it is stored by: capitals, without spaces, dashes or any
 * other separator. What is left need not be a code (the lookup decides).
 */
export const normalizeRedeemCode = (typed: string) => typed.toUpperCase().replace(/[^0-9A-Z]/g, '');

/** A code in groups for reading: ABCD-EFGH-JKMN-PQRS-TUVW. */
export function formatRedeemCode(code: string): string {
  const groups: string[] = [];
  for (let at = 0; at < code.length; at += REDEEM_CODE_GROUP)
    groups.push(code.slice(at, at + REDEEM_CODE_GROUP));
  return groups.join('-');
}

/** Reply of `/web/redeem`. */
export type Redeemed = z.infer<typeof redeemReplySchema>;
