import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { sendError } from '../http/envelope.ts';
import { toAppError } from '../http/errors.ts';

/** One error handler for the whole app: every failure becomes the envelope; 5xx details stay in the log. */
export const errorsPlugin = fp(
  async (app: FastifyInstance) => {
    app.setErrorHandler((error: FastifyError, request, reply) => {
      const appError = toAppError(error, request);
      if (appError.code === 503) {
        // Expected during a failover, and many at once: the database's own error is logged apart.
        request.log.warn({ err: error }, 'request failed: a dependency is unavailable');
      } else if (appError.code >= 500) {
        request.log.error({ err: error }, 'request failed');
      } else {
        request.log.info({ reason: appError.reason, field: appError.details.field }, 'request refused');
      }
      return sendError(request, reply, appError);
    });
  },
  { name: 'errors' },
);
