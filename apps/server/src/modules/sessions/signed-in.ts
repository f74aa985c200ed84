import type { FastifyRequest } from 'fastify';
import { tokenFromHeader } from '../../http/authorization.ts';
import { AppError } from '../../http/errors.ts';
import type { AccountEnds } from '../access/repository.ts';
import type { LiveSession, SignedInSession, SignedInUser } from './repository.ts';

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

/** Why a call has no user: no token at all, or one whose session has ended (the client signs in again). */
export const notSignedIn = (token: string | undefined) =>
  new AppError(401, token ? 'session_expired' : 'not_signed_in');

/** The signed-in user of a route declared `auth: 'required'`, or of an `optional` one that needs it. */
export function signedIn(request: FastifyRequest): LiveSession {
  if (!request.user || !request.session || !request.accountEnds)
    throw notSignedIn(tokenFromHeader(request.headers.authorization));
  return { user: request.user, session: request.session, ends: request.accountEnds };
}
