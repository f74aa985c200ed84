import type { IncomingHttpHeaders } from 'node:http';
import { type Exchange, jsonOf } from './http.ts';

/** Headers every reply carries (the server sends them itself; TLS ends at the balancer). */
export function securityHeaderProblem(headers: IncomingHttpHeaders | undefined): string | undefined {
  if (!headers) return 'no headers';
  const missing: string[] = [];
  if (headers['x-content-type-options'] !== 'nosniff') missing.push('x-content-type-options: nosniff');
  if (String(headers['x-frame-options']).toUpperCase() !== 'DENY') missing.push('x-frame-options: DENY');
  if (!headers['content-security-policy']) missing.push('content-security-policy');
  if (!headers['referrer-policy']) missing.push('referrer-policy');
  return missing.length ? `missing security headers: ${missing.join(', ')}` : undefined;
}

/**
 * What a fuzzed request must never get, whatever it sent: no reply, a 5xx, or a reply without the
 * security headers. Undefined when the reply keeps to that.
 */
export function fuzzReplyProblem(exchange: Exchange): string | undefined {
  if (exchange.error) return `no reply (${exchange.error})`;
  if ((exchange.status ?? 0) >= 500) return `status ${exchange.status}`;
  return securityHeaderProblem(exchange.headers);
}

/** `400×98, 401×73, …`: how many replies of each status (or error) a run got. */
export function statusSummary(exchanges: Exchange[]): string {
  const byStatus = new Map<string, number>();
  for (const exchange of exchanges) {
    const key = String(exchange.status ?? exchange.error);
    byStatus.set(key, (byStatus.get(key) ?? 0) + 1);
  }
  return [...byStatus].map(([status, n]) => `${status}×${n}`).join(', ');
}

/** Why a body is not the envelope `{ code, msg, data }` whose code equals the HTTP status; undefined when it is. */
export function envelopeProblem(status: number | undefined, json: unknown): string | undefined {
  if (!json || typeof json !== 'object' || Array.isArray(json)) return 'not a JSON object';
  const body = json as Record<string, unknown>;
  if (typeof body.code !== 'number') return 'no numeric code';
  if (body.code !== status) return `code ${body.code} differs from HTTP status ${status}`;
  if (typeof body.msg !== 'string' || body.msg === '') return 'no msg';
  if (!('data' in body)) return 'no data';
  return undefined;
}

/**
 * The reply a dependency failure must give: 503 `{ code: 503, msg, data: { reason:
 * 'service_unavailable', retry_after: N } }` with a matching `retry-after` header.
 */
export function isUnavailableEnvelope(exchange: Exchange): boolean {
  if (exchange.status !== 503) return false;
  const json = jsonOf(exchange);
  if (envelopeProblem(503, json)) return false;
  const data = (json as { data?: { reason?: unknown; retry_after?: unknown } }).data;
  const retryAfter = data?.retry_after;
  return (
    data?.reason === 'service_unavailable' &&
    typeof retryAfter === 'number' &&
    Number.isInteger(retryAfter) &&
    retryAfter > 0 &&
    exchange.headers?.['retry-after'] === String(retryAfter)
  );
}

/**
 * Why a `/web/` reply breaks the envelope contract: no reply, not the envelope, or no security
 * headers. Undefined when it keeps it. (Whether its status was the expected one is the caller's.)
 */
export function webReplyProblem(exchange: Exchange): string | undefined {
  if (exchange.error) return `no reply (${exchange.error})`;
  const shape = envelopeProblem(exchange.status, jsonOf(exchange));
  if (shape) return `not the envelope: ${shape}`;
  return securityHeaderProblem(exchange.headers);
}

/** How a reply to a call under a fault counts: what the call is for, the 503 envelope, or neither. */
export type Verdict = 'normal' | 'unavailable' | 'bad';

export function judge(exchange: Exchange, expectedStatus: number, isWebCall = true): Verdict {
  if (exchange.status === expectedStatus && !exchange.error) {
    if (!isWebCall) return securityHeaderProblem(exchange.headers) ? 'bad' : 'normal';
    return webReplyProblem(exchange) ? 'bad' : 'normal';
  }
  if (isUnavailableEnvelope(exchange) && !securityHeaderProblem(exchange.headers)) return 'unavailable';
  return 'bad';
}
