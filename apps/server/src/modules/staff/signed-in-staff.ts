import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Permission } from '@skyway/shared/staff';
import { AppError } from '../../http/errors.ts';
import type { StaffActor } from '../audit/repository.ts';
import type { StaffSessionWithStaff } from './repository.ts';

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

/** A session's CSRF token: derived from its secret token, so only a page that was told it knows it. */
export const csrfTokenOf = (token: string) =>
  createHash('sha256').update(`csrf:${token}`).digest('base64url');

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
