import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { SIGNATURE_MAX_SKEW_SECONDS, signParams } from '@skyway/shared/signing';
import { AppError } from '../http/errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** False for calls that a provider signs in its own way (payment webhooks). Default true. */
    signed?: boolean;
  }
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Checks a signed call; throws the 403 that the caller gets. `now` is unix seconds. */
export function verifySignature(params: Record<string, unknown>, secret: string, now: number): void {
  const signature = params.s;
  if (typeof signature !== 'string' || signature === '') throw new AppError(403, 'signature_missing');
  const t = Number(params.t);
  if (!Number.isFinite(t) || Math.abs(now - t) > SIGNATURE_MAX_SKEW_SECONDS) {
    throw new AppError(403, 'signature_stale');
  }
  if (!sameText(signature.toLowerCase(), signParams(params, secret))) {
    throw new AppError(403, 'signature_invalid');
  }
}

/**
 * The spec's request signature (section 7), enforced on every `/web/` call when a secret is set.
 * The secret ships to the browser, so this only filters naive scripts; no other control relies on it.
 */
export const signingPlugin = fp(
  async (app: FastifyInstance, options: { secret: string | undefined }) => {
    const { secret } = options;
    if (!secret) return;
    app.addHook('preValidation', async (request) => {
      const route = request.routeOptions.config;
      if (!route.auth || route.signed === false) return;
      verifySignature(request.body as Record<string, unknown>, secret, Math.floor(Date.now() / 1000));
    });
  },
  { name: 'signing', dependencies: ['bodies'] },
);
