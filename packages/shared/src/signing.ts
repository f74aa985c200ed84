import { md5 } from '@noble/hashes/legacy.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

/** Seconds a signed request's `t` may differ from the server's clock. */
export const SIGNATURE_MAX_SKEW_SECONDS = 300;

export type SignableParams = Record<string, unknown>;

function valueText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  return JSON.stringify(value);
}

/**
 * The spec's request signature: every parameter but `s`, sorted by name, values joined with no
 * separator, the secret appended, MD5 in lower-case hex. Absent (undefined or null) values are left
 * out, as they are not sent.
 */
export function signParams(params: SignableParams, secret: string): string {
  const joined = Object.keys(params)
    .filter((name) => name !== 's' && params[name] !== undefined && params[name] !== null)
    .sort()
    .map((name) => valueText(params[name]))
    .join('');
  return bytesToHex(md5(utf8ToBytes(joined + secret)));
}
