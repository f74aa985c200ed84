import { eq } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { generateSync } from 'otplib';
import { CSRF_HEADER, type StaffRole } from '@skyway/shared/staff';
import { ADMIN_API_PREFIX } from '../admin-api.ts';
import type { DatabaseHandle } from '../db/client.ts';
import { staff } from '../db/schema/index.ts';
import { createStaff, issueSetupToken } from '../modules/staff/repository.ts';
import { newClientAddress } from './test-app.ts';

let memberCount = 0;

/** The TOTP code of a secret at a time (now, or a number of 30 s steps later). */
export const totpCode = (secret: string, stepsLater = 0, now = Date.now()) =>
  generateSync({ secret, epoch: Math.floor(now / 1000) + stepsLater * 30 });

/** The staff cookie's names: beside the site, and on the back office's own https address. */
const isStaffCookie = (name: string) => name === 'skyway_staff' || name === '__Host-skyway_staff';

/** The value of the staff cookie that a reply set, if it set one. */
export function staffCookieOf(response: LightMyRequestResponse): string | undefined {
  return response.cookies.find((cookie) => isStaffCookie(cookie.name))?.value;
}

/** Where the back office is called: the Host header, and the cookie's name there. */
export interface BackOfficeAddress {
  host: string;
  cookieName: string;
}

/**
 * Calls the back office's API from one client address, with a cookie and a CSRF token when given;
 * at the back office's own address when given (else inject's default host).
 */
export function adminCaller(
  app: () => FastifyInstance,
  address = newClientAddress(),
  at?: BackOfficeAddress,
) {
  const cookieName = at?.cookieName ?? 'skyway_staff';
  return (
    method: InjectOptions['method'],
    path: string,
    options: { body?: object; cookie?: string; csrf?: string; headers?: Record<string, string> } = {},
  ) =>
    app().inject({
      method,
      url: `${ADMIN_API_PREFIX}${path}`,
      ...(options.body === undefined ? {} : { payload: options.body }),
      headers: {
        ...(at ? { host: at.host } : {}),
        ...(options.cookie ? { cookie: `${cookieName}=${options.cookie}` } : {}),
        ...(options.csrf ? { [CSRF_HEADER]: options.csrf } : {}),
        ...options.headers,
      },
      remoteAddress: address,
    });
}

/** Signs a member in with a recovery code instead of the TOTP code: the second step's reply. */
export async function signInWithRecoveryCode(
  call: ReturnType<typeof adminCaller>,
  member: Pick<SignedInStaff, 'email' | 'password'>,
  recoveryCode: string,
): Promise<LightMyRequestResponse> {
  const first = await call('POST', '/session', { body: { email: member.email, password: member.password } });
  return call('POST', '/session/second-factor', {
    cookie: staffCookieOf(first),
    body: { recovery_code: recoveryCode },
  });
}

export interface SignedInStaff {
  id: string;
  email: string;
  role: StaffRole;
  password: string;
  secret: string;
  recoveryCodes: string[];
  cookie: string;
  csrf: string;
  /** A call as this member: cookie always, CSRF header on changes. */
  call(method: InjectOptions['method'], path: string, body?: object): Promise<LightMyRequestResponse>;
}

/**
 * A member of a role, set up through the set-up link's routes (password, first TOTP code) and signed
 * in through the sign-in routes (password, then the code of the next time step), as a person would.
 */
export async function signedInStaff(
  app: FastifyInstance,
  database: DatabaseHandle,
  role: StaffRole,
  at?: BackOfficeAddress,
): Promise<SignedInStaff> {
  memberCount += 1;
  const email = `staff${memberCount}-${role}@example.com`;
  const password = `staff password ${memberCount}`;
  const member = await createStaff(database.db, { email, role, language: 'en', invitedBy: null });
  const link = await issueSetupToken(database.db, member.id, new Date(Date.now() + 3_600_000));
  const call = adminCaller(() => app, newClientAddress(), at);
  const info = await call('GET', `/setup/${link}`);
  const secret = info.json().data.totp_secret as string;
  const setup = await call('POST', `/setup/${link}`, { body: { password, code: totpCode(secret) } });
  if (setup.statusCode !== 200) throw new Error(`set-up failed: ${setup.body}`);
  const recoveryCodes = setup.json().data.recovery_codes as string[];
  const first = await call('POST', '/session', { body: { email, password } });
  const second = await call('POST', '/session/second-factor', {
    cookie: staffCookieOf(first),
    body: { code: totpCode(secret, 1) },
  });
  const cookie = staffCookieOf(second);
  if (second.statusCode !== 200 || !cookie) throw new Error(`sign-in failed: ${second.body}`);
  const csrf = second.json().data.csrf_token as string;
  return {
    id: member.id,
    email,
    role,
    password,
    secret,
    recoveryCodes,
    cookie,
    csrf,
    call: (method, path, body) => call(method, path, { body, cookie, ...(method === 'GET' ? {} : { csrf }) }),
  };
}

/**
 * Moves a member's last used TOTP step a minute back, as if they had signed in then: the code of the
 * time step now is one they have not used (a code is good once).
 */
export async function signedInAMinuteAgo(
  database: DatabaseHandle,
  member: SignedInStaff,
): Promise<SignedInStaff> {
  const earlierStep = Math.floor(Date.now() / 30_000) - 2;
  await database.db.update(staff).set({ totpLastStep: earlierStep }).where(eq(staff.id, member.id));
  return member;
}
