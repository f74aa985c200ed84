import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { CODES, type Envelope, type ErrorData } from '@skyway/shared/envelope';
import { errorEnvelope, okEnvelope } from '@skyway/shared/schemas/envelope';
import { type MessageKey, type MessageParams, translate } from '../i18n/messages.ts';
import type { AppError } from './errors.ts';
import { requestLanguage } from './language.ts';

/** A success envelope with `msg` in the caller's language. */
export function ok<T>(
  request: FastifyRequest,
  data: T,
  message: MessageKey = 'ok',
): Envelope<T> & { code: typeof CODES.ok } {
  return { code: CODES.ok, msg: translate(requestLanguage(request), message), data };
}

/** Sends the error envelope of `error`, with `msg` in the caller's language. */
export function sendError(request: FastifyRequest, reply: FastifyReply, error: AppError): FastifyReply {
  const data: ErrorData = { reason: error.reason };
  const params: MessageParams = {};
  if (error.details.field !== undefined) params.field = data.field = error.details.field;
  if (error.details.retryAfter !== undefined) {
    params.retry_after = data.retry_after = error.details.retryAfter;
    reply.header('retry-after', String(error.details.retryAfter));
  }
  if (error.code >= 500) data.request_id = request.id;
  const envelope: Envelope<ErrorData> = {
    code: error.code,
    msg: translate(requestLanguage(request), error.reason, params),
    data,
  };
  return reply.code(error.code).send(envelope);
}

/** The error envelope, for every failure a route may answer. */
export const errorReplies = { '4xx': errorEnvelope, '5xx': errorEnvelope };

/**
 * `schema.response` of a `/web/` call: its reply data in the success envelope, and the error
 * envelope. The serializer checks every reply against these and strips the fields they do not name.
 */
export const replies = <Data extends z.ZodType>(data: Data) => ({ 200: okEnvelope(data), ...errorReplies });
