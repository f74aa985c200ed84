import type { FastifyRequest } from 'fastify';

/**
 * The site's own address: PUBLIC_URL (the config requires it in production), else the request's
 * own, from its Host header (development and tests).
 */
export function siteOrigin(request: FastifyRequest, publicUrl: string | undefined): string {
  return publicUrl ?? `${request.protocol}://${request.host}`;
}
