import { SS_KEY_BYTES } from './nodes.ts';

const fromBase64 = (text: string) => Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));

/** A Shadowsocks 2022 method's key length in bytes (SIP022); 32 for a method not known here. */
export const ssKeyBytes = (method: string | null) => SS_KEY_BYTES[method as keyof typeof SS_KEY_BYTES] ?? 32;

/** A slot's secret (base64, 32 bytes) cut to a key length. */
export const ssUserKeyOfLength = (secret: string, bytes: number) =>
  toBase64(fromBase64(secret).subarray(0, bytes));

/**
 * A slot's Shadowsocks 2022 user key for an inbound's method: its secret cut to the method's key
 * length, as the subscription links give it to apps and the node's core takes it.
 */
export const ssUserKey = (secret: string, method: string | null) =>
  ssUserKeyOfLength(secret, ssKeyBytes(method));
