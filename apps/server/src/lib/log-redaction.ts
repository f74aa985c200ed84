import type { FastifyRequest } from 'fastify';
import { stdSerializers } from 'pino';

/** What a hidden secret reads as in the log. */
const REDACTED = '[redacted]';

/**
 * Path segments after which the rest of the path is a token: subscription links (`/s/TOKEN`),
 * unsubscribe links (`/unsubscribe/TOKEN`) and the back office's set-up links (the page
 * `/admin/setup/TOKEN` and its call `/admin/api/v1/setup/TOKEN`). Compared decoded and in lower
 * case, so `/S/…` or `/%73/…` is hidden too.
 */
const TOKEN_BEFORE = new Set(['s', 'unsubscribe', 'setup']);

/** Query parameters whose value is a secret, by any part of their name (UniProxy's `token`, …). */
const SECRET_PARAMETER = /token|key|secret|pass|code|sig|auth|session|csrf|otp/i;

function decoded(part: string): string {
  try {
    return decodeURIComponent(part.replace(/\+/g, ' '));
  } catch {
    return part;
  }
}

function redactPath(path: string): string {
  const segments = path.split('/');
  const at = segments.findIndex((segment) => TOKEN_BEFORE.has(decoded(segment).toLowerCase()));
  if (at === -1 || at === segments.length - 1) return path;
  return [...segments.slice(0, at + 1), REDACTED].join('/');
}

function redactQuery(query: string): string {
  return query
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      if (equals === -1 || !SECRET_PARAMETER.test(decoded(pair.slice(0, equals)))) return pair;
      return `${pair.slice(0, equals)}=${REDACTED}`;
    })
    .join('&');
}

/**
 * A URL (a request's path and query, or a whole link) with its secrets hidden: the token of every
 * route that carries one in its path, and the value of every query parameter named like a secret.
 * The one function through which every URL that reaches the log goes.
 */
export function redactUrl(url: string): string {
  const [, path = '', query] = /^([^?#]*)(?:\?([^#]*))?/.exec(url) ?? [];
  return redactPath(path) + (query === undefined ? '' : `?${redactQuery(query)}`);
}

/** Text (a mail written to the log) with every link in it through redactUrl. */
export const redactLinks = (text: string) =>
  text.replace(/\bhttps?:\/\/[^\s<>"'，。）]+/g, (link) => {
    const pathAt = link.indexOf('/', link.indexOf('//') + 2);
    return pathAt === -1 ? link : link.slice(0, pathAt) + redactUrl(link.slice(pathAt));
  });

/**
 * Properties of errors that repeat what was sent: Stripe's signature error keeps the signature
 * header and the whole payload, and Drizzle's query error the query's parameters (a TOTP secret,
 * an e-mail); the query itself stays.
 */
const SECRET_ERROR_FIELDS = ['header', 'payload', 'params'];

type SerializedError = Record<string, unknown>;

/**
 * Drizzle's message ends with the parameters (`Failed query: …\nparams: …`), which the stack
 * repeats before its first frame.
 */
const withoutParameters = (text: string) => text.replace(/\nparams: [\s\S]*?(?=\n {4}at |$)/, '');

function redactSerializedError(error: SerializedError): SerializedError {
  const redacted = Object.fromEntries(
    Object.entries(error).filter(([field]) => !SECRET_ERROR_FIELDS.includes(field)),
  ) as SerializedError;
  for (const field of ['message', 'stack']) {
    const text = redacted[field];
    if (typeof text === 'string') redacted[field] = withoutParameters(text);
  }
  if (redacted.cause && typeof redacted.cause === 'object') {
    redacted.cause = redactSerializedError(redacted.cause as SerializedError);
  }
  return redacted;
}

/**
 * The app's log serializers: a request is its method, redacted URL, host and address (never its
 * headers, which hold cookies, bearer tokens and signatures), and an error loses what repeats
 * secrets it was given.
 */
export const logSerializers = {
  req: (request: FastifyRequest) => ({
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
  }),
  // Anything thrown is logged as `err`: pino serializes what is like an Error and passes the rest.
  err: (error: Error) => {
    const serialized = stdSerializers.err(error);
    if (!serialized || typeof serialized !== 'object') return serialized;
    return redactSerializedError({ ...serialized }) as typeof serialized;
  },
};
