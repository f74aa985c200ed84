import { timingSafeEqual } from 'node:crypto';
import cookie from '@fastify/cookie';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { can, CSRF_HEADER, STAFF_SESSION_IDLE_MINUTES } from '@skyway/shared/staff';
import type { Database } from '../db/client.ts';
import { AppError } from '../http/errors.ts';
import {
  findStaffSession,
  type StaffSessionWithStaff,
  touchStaffSession,
} from '../modules/staff/repository.ts';
import {
  clearStaffCookie,
  csrfTokenOf,
  type StaffCookie,
  staffToken,
} from '../modules/staff/signed-in-staff.ts';

/** The last-seen time is written at most this often: the idle limit is kept to within it. */
const TOUCH_EVERY_MS = 15_000;

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
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
