import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyServerOptions } from 'fastify';
import { DEFAULT_LANGUAGE } from '@skyway/shared/languages';
import type { Envelope, ErrorData, Reason } from '@skyway/shared/envelope';
import { translate } from '../i18n/messages.ts';
import { CALL_HEADERS } from './security-headers.ts';

/** Node's refusals of a request it could not even read, as the envelope the client understands. */
function refusal(error: { code?: string }): { code: 400 | 408 | 413; reason: Reason } {
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return { code: 408, reason: 'request_timeout' };
  if (error.code === 'HPE_HEADER_OVERFLOW') return { code: 413, reason: 'payload_too_large' };
  return { code: 400, reason: 'body_invalid' };
}

/**
 * Answers what Node's HTTP parser refuses before any route or hook sees it (a request that did
 * not arrive within REQUEST_TIMEOUT_MS, malformed HTTP, oversized headers) in the envelope with the
 * security headers, like every other reply, then closes the connection. No request was parsed, so
 * the message is in the default language.
 */
export const clientErrorHandler: NonNullable<FastifyServerOptions['clientErrorHandler']> = (
  error: Error & { code?: string },
  socket: Socket,
) => {
  // A reset connection has nobody left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const { code, reason } = refusal(error);
  const envelope: Envelope<ErrorData> = { code, msg: translate(DEFAULT_LANGUAGE, reason), data: { reason } };
  const body = JSON.stringify(envelope);
  const headers = {
    ...CALL_HEADERS,
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    connection: 'close',
  };
  if (socket.writable) {
    const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
    socket.write(`HTTP/1.1 ${code} ${STATUS_CODES[code]}\r\n${lines.join('\r\n')}\r\n\r\n${body}`);
  }
  socket.destroy();
};
