import { generateSecret, generateSync } from 'otplib';
import { CSRF_HEADER } from '@skyway/shared/staff';
import { hashPassword } from '../../src/lib/passwords.ts';
import { SEEDED_PASSWORD } from './accounts.ts';
import type { FaultDatabase } from './database.ts';
import { dataOf, describeExchange, send, type Target } from './http.ts';
import { randomClientAddress, uniqueEmail } from './random.ts';
import { noteSecret } from './secrets.ts';

export const ADMIN_API = '/admin/api/v1';

export interface StaffSession {
  /** The `Cookie` header of the signed-in session. */
  cookie: string;
  /** The headers every change carries: the cookie and the CSRF token. */
  changeHeaders: Record<string, string>;
}

/** An owner written straight into the database, set up: their e-mail, and the secret their app holds. */
export async function seedOwner(database: FaultDatabase): Promise<{ email: string; secret: string }> {
  const email = uniqueEmail('owner');
  const secret = noteSecret('TOTP secret', generateSecret());
  await database.query(
    `insert into staff (email, role, language, password_hash, totp_secret, set_up_at)
     values ($1, 'owner', 'en', $2, $3, now())`,
    [email, await hashPassword(SEEDED_PASSWORD), secret],
  );
  return { email, secret };
}

const cookieOf = (headers: Record<string, unknown> | undefined) =>
  String((headers?.['set-cookie'] as string[] | undefined)?.[0] ?? '').split(';')[0] ?? '';

/** Signs a member in over HTTP: the password, then the code their app shows now. */
export async function signInStaff(
  target: Target,
  member: { email: string; secret: string },
): Promise<StaffSession> {
  const ip = randomClientAddress();
  const post = (path: string, body: object, cookie?: string) =>
    send(target, {
      method: 'POST',
      path: `${ADMIN_API}${path}`,
      headers: { 'content-type': 'application/json', 'x-forwarded-for': ip, ...(cookie ? { cookie } : {}) },
      body: JSON.stringify(body),
    });
  const first = await post('/session', { email: member.email, password: SEEDED_PASSWORD });
  const halfOpen = cookieOf(first.headers);
  const second = await post(
    '/session/second-factor',
    { code: generateSync({ secret: member.secret }) },
    halfOpen,
  );
  const cookie = cookieOf(second.headers);
  const csrf = dataOf(second).csrf_token;
  if (second.status !== 200 || !cookie || typeof csrf !== 'string') {
    throw new Error(`staff sign-in failed: ${describeExchange(first)} / ${describeExchange(second)}`);
  }
  noteSecret('staff session cookie', cookie.split('=')[1] ?? '');
  noteSecret('CSRF token', csrf);
  return { cookie, changeHeaders: { cookie, [CSRF_HEADER]: csrf } };
}
