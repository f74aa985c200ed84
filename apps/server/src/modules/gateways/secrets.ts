import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { AppError } from '../../http/errors.ts';

/** The format's version, so that a later key rotation can tell old sealed values from new ones. */
const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** SECRETS_KEY, or the back office's error when the server has none. */
export function requireSecretsKey(key: Buffer | undefined): Buffer {
  if (!key) throw new AppError(409, 'secrets_key_unset');
  return key;
}

/**
 * A gateway's keys sealed with AES-256-GCM under SECRETS_KEY: `v1.<iv>.<tag>.<ciphertext>` in
 * base64url. The gateway's id is the additional data, so sealed keys copied onto another gateway's
 * row do not open there.
 */
export function sealKeys(key: Buffer, gatewayId: string, keys: Record<string, string>): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(gatewayId));
  const sealed = Buffer.concat([cipher.update(JSON.stringify(keys), 'utf8'), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), sealed]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

/** The keys sealKeys sealed; throws when the key or the row is not the one they were sealed with. */
export function openKeys(key: Buffer, gatewayId: string, sealed: string): Record<string, string> {
  const [version, iv, tag, body] = sealed.split('.');
  if (version !== VERSION || !iv || !tag || body === undefined) throw new Error('unknown sealed keys format');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'), {
    authTagLength: TAG_BYTES,
  });
  decipher.setAAD(Buffer.from(gatewayId));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  const text = Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]);
  return JSON.parse(text.toString('utf8')) as Record<string, string>;
}
