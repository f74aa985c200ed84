import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../http/errors.ts';
import { inBackOffice } from './spa.ts';

/**
 * Whether a request came to the back office's address. The host is Fastify's: the Host header, or
 * the last X-Forwarded-Host when the proxy that sent it is trusted (TRUST_PROXY), like the client's
 * address and protocol. Read as the address's scheme reads it, so a default port written out or not
 * is the same host.
 */
function isBackOfficeHost(request: FastifyRequest, address: URL): boolean {
  try {
    return new URL(`${address.protocol}//${request.host}`).host === address.host;
  } catch {
    return false;
  }
}

/**
 * With ADMIN_PUBLIC_URL set, the back office has an origin of its own: `/admin/` (its pages, files
 * and API) answers on that host alone, and that host serves nothing of the customer site, so no
 * script on a customer page shares an origin with the back office or its cookie. `/` there leads to
 * `/admin/`; `/healthz` answers on every host. Unset, nothing is checked.
 */
export const backOfficeHostPlugin = fp(
  async (app: FastifyInstance, options: { adminUrl: string | undefined }) => {
    if (!options.adminUrl) return;
    const address = new URL(options.adminUrl);
    app.addHook('onRequest', async (request, reply) => {
      const pathname = request.url.split('?', 1)[0] ?? '';
      if (pathname === '/healthz') return;
      const onBackOfficeHost = isBackOfficeHost(request, address);
      if (onBackOfficeHost && pathname === '/') return reply.redirect('/admin/');
      if (onBackOfficeHost !== inBackOffice(pathname)) throw new AppError(404, 'not_found');
    });
  },
  { name: 'back-office-host', dependencies: ['errors'] },
);
