import { z } from 'zod';
import { LANGUAGES } from '../../languages.ts';
import { ALL_PERMISSIONS, STAFF_ROLES, TOTP_DIGITS } from '../../staff.ts';
import { emailField, passwordField } from '../accounts.ts';
import { isoTime, sortQuery } from './common.ts';
import { listQuery } from '../paging.ts';

const role = z.enum(STAFF_ROLES);
const totpCode = z
  .string()
  .trim()
  .regex(new RegExp(`^\\d{${TOTP_DIGITS}}$`));
/** Recovery codes are shown as `xxxx-xxxx-xxxx-xxxx-xxxx-xxxx` (older ones as `xxxxx-xxxxx`); case, spaces and dashes are ignored when one is typed. */
const recoveryCode = z.string().trim().min(10).max(40);

/** A member of staff as the back office shows them. */
export const staffSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  role,
  language: z.enum(LANGUAGES),
  /** `invited`: has not finished the set-up link yet. */
  status: z.enum(['invited', 'active', 'disabled']),
  created_at: isoTime,
  last_sign_in_at: isoTime.nullable(),
});

/** First step of signing in: the password. */
export const staffSignInRequest = z.object({ email: emailField, password: z.string().min(1).max(128) });
/** What the second step needs. */
export const staffSignInReply = z.object({ next: z.literal('second_factor') });
/** Second step: a code of the authenticator app, or one of the recovery codes. */
export const secondFactorRequest = z.union([
  z.object({ code: totpCode }).strict(),
  z.object({ recovery_code: recoveryCode }).strict(),
]);

/** The signed-in member, the CSRF token their changes carry, and what their role may do. */
export const staffSessionSchema = z.object({
  staff: staffSchema,
  csrf_token: z.string(),
  permissions: z.array(z.enum(ALL_PERMISSIONS as [string, ...string[]])),
  expires_at: isoTime,
  /** How many of the recovery codes are left unused. */
  recovery_codes_left: z.number().int(),
  /** How many of those are of the older, weaker kind (`xxxxx-xxxxx`): the member should make new ones. */
  old_recovery_codes_left: z.number().int(),
});

/** What the set-up link's page shows: who is being set up, and the TOTP secret to scan. */
export const setupInfoSchema = z.object({
  email: z.string(),
  role,
  totp_secret: z.string(),
  /** `otpauth://` URI, for the QR code. */
  totp_uri: z.string(),
});
export const setupRequest = z.object({ password: passwordField, code: totpCode });
/** Ten new recovery codes, shown this once (at set-up, or when the member makes new ones). */
export const recoveryCodesReply = z.object({ recovery_codes: z.array(z.string()) });
export const setupParams = z.object({ token: z.string().min(20).max(100) });

export const staffListQuery = listQuery.extend(sortQuery.shape);
export const staffInviteRequest = z.object({
  email: emailField,
  role,
  language: z.enum(LANGUAGES).default('zh'),
});
/** A change to a member: a new role, or disabled (true) / enabled (false). */
export const staffPatchRequest = z
  .object({ role: role.optional(), disabled: z.boolean().optional() })
  .refine((patch) => patch.role !== undefined || patch.disabled !== undefined, { path: ['role'] });

/** New recovery codes for the signed-in member, in place of all theirs: their password and a current code. */
export const newRecoveryCodesRequest = z.object({ password: z.string().min(1).max(128), code: totpCode });
