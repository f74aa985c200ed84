import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { isCallPath } from './call-paths.ts';

/** Every call route (`/web/`, `/admin/api/`) declares its success reply (`schema.response[200]`); the app refuses to start otherwise. */
export const replySchemasPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('onRoute', (route) => {
      const response = route.schema?.response as Record<string, unknown> | undefined;
      if (isCallPath(route.url) && !response?.[200]) {
        throw new Error(`Route ${route.url} must declare its reply schema (schema.response[200])`);
      }
    });
  },
  { name: 'reply-schemas' },
);
