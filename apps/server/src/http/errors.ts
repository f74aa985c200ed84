import type { FastifyError, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { Code, Reason } from '@skyway/shared/envelope';
import { isTransientDatabaseError } from '../db/errors.ts';

/** An error a caller is meant to see: its code, its reason and what the message needs. */
export class AppError extends Error {
  constructor(
    readonly code: Exclude<Code, 200>,
    readonly reason: Reason,
    readonly details: { field?: string; retryAfter?: number } = {},
  ) {
    super(reason);
    this.name = 'AppError';
  }
}

function fieldOf(error: { validation: { instancePath: string }[] }): string {
  const path = error.validation[0]?.instancePath ?? '';
  return path.split('/').filter(Boolean)[0] ?? 'body';
}

function isMissing(body: unknown, field: string): boolean {
  if (!body || typeof body !== 'object') return true;
  const value = (body as Record<string, unknown>)[field];
  return value === undefined || value === null || value === '';
}

/** A failover or restart of the database takes a few seconds: when to try again after a 503. */
const RETRY_AFTER_UNAVAILABLE_SECONDS = 2;

// Fastify's own errors that a caller can cause, by their error code.
const FRAMEWORK_ERRORS: Record<string, [AppError['code'], Reason]> = {
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'payload_too_large'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'unsupported_media_type'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'body_invalid'],
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'body_invalid'],
};

/** Maps anything thrown to the AppError that the caller sees. */
export function toAppError(error: FastifyError, request: FastifyRequest): AppError {
  if (error instanceof AppError) return error;
  if (hasZodFastifySchemaValidationErrors(error)) {
    const field = fieldOf(error);
    return new AppError(400, isMissing(request.body, field) ? 'field_required' : 'field_invalid', { field });
  }
  const known = error.code ? FRAMEWORK_ERRORS[error.code] : undefined;
  if (known) return new AppError(...known);
  if (error.statusCode === 413) return new AppError(413, 'payload_too_large');
  if (error.statusCode === 429) return new AppError(429, 'too_many_requests');
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    return new AppError(400, 'body_invalid');
  }
  if (isTransientDatabaseError(error)) {
    return new AppError(503, 'service_unavailable', { retryAfter: RETRY_AFTER_UNAVAILABLE_SECONDS });
  }
  return new AppError(500, 'internal_error');
}
