import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { AccountChanges } from '../db/account-changes.ts';
import type { Database } from '../db/client.ts';
import type { AccountEnds } from '../modules/access/repository.ts';
import {
  findLiveSession,
  type LiveSession,
  type SignedInSession,
  type SignedInUser,
} from '../modules/sessions/repository.ts';
import { createSignedInCache } from '../modules/sessions/signed-in-cache.ts';
import { AppError } from './errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Every `/web/` call declares whether it needs a signed-in user; `optional` calls take one when
     * the token is good and go on without one otherwise.
     */
    auth?: 'required' | 'optional' | 'public';
  }
  interface FastifyRequest {
    user: SignedInUser | null;
    session: SignedInSession | null;
    /** The ends of the signed-in account's App Store period and free trial, read with its session. */
    accountEnds: AccountEnds | null;
  }
}

/** The token of the `authorization` header: bare, as the spec sends it, or as `Bearer <token>`. */
export function tokenFromHeader(header: string | undefined): string | undefined {
  const value = header?.trim().replace(/^bearer\s+/i, '');
  return value ? value : undefined;
}

/** Why a call has no user: no token at all, or one whose session has ended (the client signs in again). */
const notSignedIn = (token: string | undefined) =>
  new AppError(401, token ? 'session_expired' : 'not_signed_in');

/** The signed-in user of a route declared `auth: 'required'`, or of an `optional` one that needs it. */
export function signedIn(request: FastifyRequest): LiveSession {
  if (!request.user || !request.session || !request.accountEnds)
    throw notSignedIn(tokenFromHeader(request.headers.authorization));
  return { user: request.user, session: request.session, ends: request.accountEnds };
}

export const authPlugin = fp(
  async (app: FastifyInstance, options: { db: Database; accountChanges?: AccountChanges }) => {
    // Only where changes to accounts can be heard (PostgreSQL); see signed-in-cache.ts.
    const cache = options.accountChanges && createSignedInCache(options.accountChanges);
    if (cache) app.addHook('onClose', async () => cache.close());
    app.decorateRequest('user', null);
    app.decorateRequest('session', null);
    app.decorateRequest('accountEnds', null);

    app.addHook('onRoute', (route) => {
      if (route.url.startsWith('/web/') && !route.config?.auth) {
        throw new Error(`Route ${route.url} must declare config.auth ('required', 'optional' or 'public')`);
      }
    });

    app.addHook('preValidation', async (request) => {
      const need = request.routeOptions.config.auth;
      if (need !== 'required' && need !== 'optional') return;
      const token = tokenFromHeader(request.headers.authorization);
      const found = token ? await findLiveSession(options.db, token, { cache }) : undefined;
      if (!found || found.user.revokedAt) {
        if (need === 'optional') return;
        throw found ? new AppError(403, 'account_revoked') : notSignedIn(token);
      }
      request.user = found.user;
      request.session = found.session;
      request.accountEnds = found.ends;
    });
  },
  { name: 'auth', dependencies: ['bodies', 'errors'] },
);
