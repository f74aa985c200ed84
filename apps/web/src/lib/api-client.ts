import { ApiError } from '@skyway/shared/api-error';
import { CODES, type Envelope } from '@skyway/shared/envelope';
import { LANGUAGE_PARAM, type Language } from '@skyway/shared/languages';
import { type HttpReply, postJson } from './http.ts';
import { i18n } from './i18n.ts';
import { currentLanguage } from './language.ts';
import { reloadPage } from './page.ts';
import { clearSession, getSession, updateUser } from './session.ts';
import { writeFlash } from './storage.ts';
import { ERROR_SECONDS, showError } from './toast.ts';

export type Payload = Record<string, unknown>;

export interface CallOptions {
  /** No toast on failure: for calls whose failure is only logged (spec section 8). */
  silent?: boolean;
  /**
   * No toast on failure either, for calls the page makes by itself now and then (the notices'
   * bell); but a session the server rejects is told as any call tells it, after the reload: such a
   * call is often the first to meet it.
   */
  background?: boolean;
  /** The call answers a file (a ticket's image): its success is the file's bytes, a Blob. */
  file?: boolean;
}

export interface ApiReply<T> {
  data: T;
  msg: string;
}

/** The secret the server injects into index.html when it enforces signatures. */
export function readSigningSecret(): string | null {
  const meta = document.querySelector<HTMLMetaElement>('meta[name="signature-secret"]');
  return meta?.content ? meta.content : null;
}

export interface RequestContext {
  token: string | null;
  language: Language;
  secret: string | null;
  /** Unix seconds. */
  now: number;
}

export interface ShapedRequest {
  body: Payload;
  headers: Record<string, string>;
}

// The signature (and the MD5 it needs) loads only on a site that enforces signatures.
const loadSigning = () => import('@skyway/shared/signing');

/**
 * Adds `t` and `l` to every payload (`l` also picks the language of the server's `msg`), signs it
 * when a secret is known, and sends the token only when there is one.
 */
export async function shapeRequest(payload: Payload, context: RequestContext): Promise<ShapedRequest> {
  const body: Payload = { ...payload, t: context.now, l: LANGUAGE_PARAM[context.language] };
  if (context.secret !== null) {
    const { signParams } = await loadSigning();
    body.s = signParams(body, context.secret);
  }
  const headers: Record<string, string> = {};
  if (context.token !== null) headers.authorization = context.token;
  return { body, headers };
}

function isEnvelope(value: unknown): value is Envelope {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Envelope).code === 'number' &&
    'data' in value &&
    typeof (value as Envelope).msg === 'string'
  );
}

function expireUserOf(data: unknown): number | undefined {
  if (typeof data !== 'object' || data === null || !('expire_user' in data)) return undefined;
  const value = data.expire_user;
  return typeof value === 'number' ? value : undefined;
}

function toast(text: string, options: CallOptions): void {
  if (!options.silent && !options.background) showError(text, ERROR_SECONDS);
}

function signOutLocally(msg: string, options: CallOptions): void {
  clearSession();
  // The reload would wipe a toast shown now; the next page load shows it instead.
  if (!options.silent) writeFlash(msg);
  reloadPage();
}

/** POSTs a call and resolves with the reply's data and msg; every failure has been reported already. */
export async function request<T>(
  path: string,
  payload: Payload = {},
  options: CallOptions = {},
): Promise<ApiReply<T>> {
  const { token } = getSession();
  const context: RequestContext = {
    token,
    language: currentLanguage(),
    secret: readSigningSecret(),
    now: Math.floor(Date.now() / 1000),
  };

  let reply: HttpReply;
  try {
    const { body, headers } = await shapeRequest(payload, context);
    reply = await postJson(path, body, headers, options.file);
  } catch (error) {
    // No reply at all (offline, timeout, refused, or the signing code could not be fetched): the
    // spec's handler crashed here; we tell the user.
    const text = i18n.t('common:errors.network');
    toast(text, options);
    throw new ApiError(0, text, error);
  }

  if (reply.body instanceof Blob) return { data: reply.body as T, msg: '' };
  if (!isEnvelope(reply.body)) {
    const text = i18n.t('common:errors.badReply', { status: reply.status });
    toast(text, options);
    throw new ApiError(reply.status, text);
  }

  const { code, msg, data } = reply.body;
  if (code === CODES.ok) {
    const expireUser = expireUserOf(data);
    if (expireUser !== undefined) updateUser({ expire_user: expireUser });
    return { data: data as T, msg };
  }

  const text = msg || i18n.t('common:errors.unknown');
  if (code === CODES.unauthorized && token !== null) signOutLocally(text, options);
  else toast(text, options);
  throw new ApiError(code, text, data);
}

/** Like request(), for callers that need the data only. */
export async function callApi<T>(path: string, payload: Payload = {}, options: CallOptions = {}): Promise<T> {
  const { data } = await request<T>(path, payload, options);
  return data;
}
