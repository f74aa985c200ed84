import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * The signature Epay and EPUSDT share: MD5 over the sorted, non-empty fields but the unsigned ones,
 * joined as `k=v&…`, with the secret appended.
 */

/** The text signed: the sorted non-empty fields, without the `unsigned` ones, as `k=v&…`. */
export function sortedFieldsText(fields: Record<string, string>, unsigned: readonly string[]): string {
  return Object.keys(fields)
    .filter((name) => !unsigned.includes(name) && fields[name] !== '')
    .sort()
    .map((name) => `${name}=${fields[name]}`)
    .join('&');
}

export const md5Signature = (signedText: string, secret: string) =>
  createHash('md5')
    .update(signedText + secret, 'utf8')
    .digest('hex');

/** Whether a signature given (any case) is the expected one, compared in constant time. */
export function signatureMatches(given: string, expected: string): boolean {
  const a = Buffer.from(given.toLowerCase(), 'utf8');
  const b = Buffer.from(expected, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}
