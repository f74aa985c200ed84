import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AccountChanges } from '../db/account-changes.ts';
import type { Database } from '../db/client.ts';
import { tokenFromHeader } from '../http/authorization.ts';
import { AppError } from '../http/errors.ts';
import { findLiveSession } from '../modules/sessions/repository.ts';
import { createSignedInCache } from '../modules/sessions/signed-in-cache.ts';
import { notSignedIn } from '../modules/sessions/signed-in.ts';

/**
 * The sign-in check on every `/web/` call, by the route's `config.auth`; what a route reads of it
 * (`signedIn`, `request.user`) is in modules/sessions/signed-in.ts.
 */
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
