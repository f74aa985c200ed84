import { ApiError } from '@skyway/shared/api-error';
import { CSRF_HEADER } from '@skyway/shared/staff';
import { currentLanguage, HTML_LANGUAGE } from './i18n.ts';

export const API = '/admin/api/v1';

let csrfToken: string | null = null;

/** The session's CSRF token, sent on every change (from the session's reply). */
export const setCsrfToken = (token: string | null) => {
  csrfToken = token;
};

/** Calls the back office's API; answers the envelope's data, or throws its refusal as an ApiError. */
export async function api<T>(
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  path: string,
  body?: unknown,
): Promise<T> {
  const headers: Record<string, string> = { 'accept-language': HTML_LANGUAGE[currentLanguage()] };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers[CSRF_HEADER] = csrfToken;
  const response = await fetch(`${API}${path}`, {
    method,
    headers,
    credentials: 'same-origin',
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const envelope = (await response.json().catch(() => null)) as {
    code: number;
    msg: string;
    data: T;
  } | null;
  if (!envelope) throw new ApiError(response.status, response.statusText);
  if (envelope.code !== 200) {
    throw new ApiError(envelope.code, envelope.msg, envelope.data);
  }
  return envelope.data;
}

/** A query string of the defined values. */
export function query(params: Record<string, string | number | undefined | null>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '') search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}
