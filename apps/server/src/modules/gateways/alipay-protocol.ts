import { createPrivateKey, createPublicKey } from 'node:crypto';
import { AlipayRequestError, AlipaySdk } from 'alipay-sdk';

/**
 * Alipay's OpenAPI (the `alipay.trade.*` methods of face-to-face, 当面付) through Alipay's own SDK:
 * it signs each call with the app's RSA2 private key and checks the signature of each answer with
 * Alipay's public key, and checks a notify's signature the same way.
 */

export interface AlipayApp {
  appId: string;
  /** Alipay's public key, as PEM. */
  alipayPublicKey: string;
  /** The app's RSA2 private key, as PEM. */
  privateKey: string;
  /** The OpenAPI gateway (`…/gateway.do`). */
  gatewayUrl: string;
}

/** An answer of an `alipay.trade.*` method: its code, and its fields as Alipay names them. */
export interface AlipayAnswer {
  code: string;
  msg: string;
  sub_code?: string;
  sub_msg?: string;
  [field: string]: unknown;
}

/** Alipay's code for a call done. */
export const ALIPAY_OK = '10000';

/** How long a call to Alipay may take: the buyer's inquiry waits for it. */
const CALL_TIMEOUT_MS = 10_000;

/** The base64 body of a key, whatever lines or PEM armour it was pasted with. */
const keyBody = (text: string) =>
  text
    .split('\n')
    .filter((line) => !line.includes('-----'))
    .join('')
    .replace(/\s+/g, '');

/**
 * Alipay's public key as PEM, from the base64 Alipay's site shows (or a PEM); null when it is not
 * an RSA public key.
 */
export function alipayPublicKeyPem(text: string): string | null {
  try {
    const key = createPublicKey({ key: Buffer.from(keyBody(text), 'base64'), format: 'der', type: 'spki' });
    return key.asymmetricKeyType === 'rsa' ? key.export({ format: 'pem', type: 'spki' }).toString() : null;
  } catch {
    return null;
  }
}

/**
 * The app's private key as PKCS#8 PEM, from what Alipay's key tool gives (PKCS#1 for most
 * languages, PKCS#8 for Java, with or without PEM lines); null when it is not an RSA private key.
 */
export function appPrivateKeyPem(text: string): string | null {
  const der = Buffer.from(keyBody(text), 'base64');
  for (const type of ['pkcs8', 'pkcs1'] as const) {
    try {
      const key = createPrivateKey({ key: der, format: 'der', type });
      if (key.asymmetricKeyType === 'rsa') return key.export({ format: 'pem', type: 'pkcs8' }).toString();
    } catch {
      // Not this encoding: try the other.
    }
  }
  return null;
}

function sdkOf(app: AlipayApp): AlipaySdk {
  return new AlipaySdk({
    appId: app.appId,
    privateKey: app.privateKey,
    keyType: 'PKCS8',
    alipayPublicKey: app.alipayPublicKey,
    gateway: app.gatewayUrl,
    timeout: CALL_TIMEOUT_MS,
    camelcase: false,
  });
}

/**
 * Calls one `alipay.trade.*` method and returns its answer, whose signature Alipay's public key
 * must check. Throws when Alipay cannot be reached, or its answer is not signed by its key.
 */
export async function callAlipay(
  app: AlipayApp,
  method: string,
  bizContent: Record<string, string>,
  common: Record<string, string> = {},
): Promise<AlipayAnswer> {
  const answer = await sdkOf(app).exec(method, { ...common, bizContent }, { validateSign: true });
  return answer as AlipayAnswer;
}

/**
 * Whether an error of callAlipay is Alipay out of reach (no connection, an HTTP error, an answer
 * that is not Alipay's JSON), rather than an answer whose signature Alipay's public key does not
 * check (or that carries none, as Alipay answers an app it does not know).
 */
export function isAlipayUnreachable(error: unknown): boolean {
  return (
    error instanceof AlipayRequestError &&
    /^(HttpClient Request error|HTTP 请求错误|Response 格式错误)/.test(error.message)
  );
}

/** Whether a notify's fields carry the signature of Alipay's key (RSA2 over the sorted fields). */
export function alipayNotifySigned(app: AlipayApp, fields: Record<string, string>): boolean {
  try {
    return sdkOf(app).checkNotifySignV2(fields);
  } catch {
    return false;
  }
}

/** A time as Alipay writes it: `yyyy-MM-dd HH:mm:ss` in China's time (UTC+8, no summer time). */
export function alipayTime(at: Date): string {
  return new Date(at.getTime() + 8 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
}
