import { createHash, timingSafeEqual } from 'node:crypto';
import cookie from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { can, CSRF_HEADER, type Permission, STAFF_SESSION_IDLE_MINUTES } from '@skyway/shared/staff';
import type { Database } from '../db/client.ts';
import type { StaffActor } from '../modules/audit/repository.ts';
import {
  findStaffSession,
  type StaffSessionWithStaff,
  touchStaffSession,
} from '../modules/staff/repository.ts';
import { AppError } from './errors.ts';

/**
 * What an `/admin/api/` route needs: a permission of the matrix, any signed-in member
 * (`signed_in`), a session whose password passed and whose second factor is due (`second_factor`),
 * or nothing (`public`).
 */
export type StaffAccess = Permission | 'signed_in' | 'second_factor' | 'public';

declare module 'fastify' {
  interface FastifyContextConfig {
    staff?: StaffAccess;
  }
  interface FastifyRequest {
    staffSession: StaffSessionWithStaff | null;
  }
  interface FastifyInstance {
    staffCookie: StaffCookie;
  }
}

export interface StaffCookie {
  name: string;
  path: string;
}

const STAFF_COOKIE = 'skyway_staff';

/**
 * The staff cookie's name and path. On the back office's own https address: `__Host-`, so the
 * browser keeps it only as set by that host, over https, for the whole host and no other (path `/`:
 * that host serves the back office alone). Elsewhere (no address of its own, or plain http on a
 * developer's machine): path `/admin`, beside the site.
 */
export function staffCookieFor(adminUrl: string | undefined): StaffCookie {
  return adminUrl?.startsWith('https://')
    ? { name: `__Host-${STAFF_COOKIE}`, path: '/' }
    : { name: STAFF_COOKIE, path: '/admin' };
}
/** The last-seen time is written at most this often: the idle limit is kept to within it. */
const TOUCH_EVERY_MS = 15_000;

/** A session's CSRF token: derived from its secret token, so only a page that was told it knows it. */
export const csrfTokenOf = (token: string) =>
  createHash('sha256').update(`csrf:${token}`).digest('base64url');

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * HttpOnly, Secure, SameSite=Strict, host-only (no Domain), only sent to the back office; gone when
 * the session ends.
 */
export function setStaffCookie(reply: FastifyReply, token: string, expiresAt: Date): void {
  const { name, path } = reply.server.staffCookie;
  reply.setCookie(name, token, {
    path,
    httpOnly: true,
    secure: true,
    sameSite: 'strict',
    expires: expiresAt,
  });
}

export function clearStaffCookie(reply: FastifyReply): void {
  const { name, path } = reply.server.staffCookie;
  reply.clearCookie(name, { path, httpOnly: true, secure: true, sameSite: 'strict' });
}

export const staffToken = (request: FastifyRequest) => request.cookies[request.server.staffCookie.name];

/** The signed-in member of a route that needs one, and who they are for the audit log. */
export function signedInStaff(request: FastifyRequest): StaffSessionWithStaff & { actor: StaffActor } {
  const found = request.staffSession;
  if (!found) throw new AppError(401, 'not_signed_in');
  const { staff } = found;
  return { ...found, actor: { staffId: staff.id, email: staff.email, role: staff.role, ip: request.ip } };
}

const isLive = (found: StaffSessionWithStaff, now: Date) =>
  found.session.expiresAt > now &&
  (found.session.stage !== 'signed_in' ||
    now.getTime() - found.session.lastSeenAt.getTime() < STAFF_SESSION_IDLE_MINUTES * 60_000) &&
  !found.staff.disabledAt;

/**
 * The back office's sign-in check on every `/admin/api/` route: the session of the cookie (read
 * from the database each time, so a disabled member or an ended session is refused at once), its
 * stage, the route's permission, and on every change the CSRF header.
 */
export const staffAuthPlugin = fp(
  async (app: FastifyInstance, options: { db: Database; cookie: StaffCookie }) => {
    await app.register(cookie);
    app.decorate('staffCookie', options.cookie);
    app.decorateRequest('staffSession', null);

    app.addHook('onRoute', (route) => {
      if (route.url.startsWith('/admin/api/') && !route.config?.staff) {
        throw new Error(
          `Route ${route.url} must declare config.staff (a permission, 'signed_in', 'second_factor' or 'public')`,
        );
      }
    });

    app.addHook('preValidation', async (request, reply) => {
      const need = request.routeOptions.config.staff;
      if (!need || need === 'public') return;
      const token = staffToken(request);
      const now = new Date();
      const found = token ? await findStaffSession(options.db, token) : undefined;
      const stage = need === 'second_factor' ? 'second_factor' : 'signed_in';
      if (!token || !found || !isLive(found, now) || found.session.stage !== stage) {
        if (token) clearStaffCookie(reply);
        throw new AppError(401, token ? 'session_expired' : 'not_signed_in');
      }
      if (need !== 'signed_in' && need !== 'second_factor' && !can(found.staff.role, need)) {
        throw new AppError(403, 'permission_denied');
      }
      if (stage === 'signed_in' && request.method !== 'GET' && request.method !== 'HEAD') {
        const header = request.headers[CSRF_HEADER];
        if (typeof header !== 'string' || !sameText(header, csrfTokenOf(token))) {
          throw new AppError(403, 'csrf_invalid');
        }
      }
      if (now.getTime() - found.session.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
        await touchStaffSession(options.db, found.session.id, now);
      }
      request.staffSession = found;
    });
  },
  { name: 'staff-auth', dependencies: ['bodies', 'errors'] },
);
