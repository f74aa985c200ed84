import { assignableRoles, STAFF_SESSION_HOURS, type StaffRole } from '@skyway/shared/staff';
import { DEFAULT_LANGUAGE, isLanguage, type Language } from '@skyway/shared/languages';
import type { Database } from '../../db/client.ts';
import type { StaffRow } from '../../db/schema/index.ts';
import { AppError } from '../../http/errors.ts';
import {
  decoyHash,
  hashPassword,
  isCommonPassword,
  SIGN_IN_TRIES_PER_ADDRESS,
  SIGN_IN_TRIES_PER_IP,
  verifyPassword,
} from '../../lib/passwords.ts';
import { type Actor, COMMAND_LINE, recordAudit, type StaffActor } from '../audit/repository.ts';
import type { Counters } from '../limits/counters.ts';
import type { Mailer } from '../mail/mailer.ts';
import {
  completeSetup,
  countRecoveryCodesLeft,
  createStaff,
  endStaffSession,
  endStaffSessions,
  findSetupStaff,
  findStaffByEmail,
  isStaffEmailClash,
  lockStaff,
  openStaffSession,
  recordStaffSignIn,
  replaceRecoveryCodes,
  updateStaff,
  issueSetupToken,
  useRecoveryCode,
  useSetupToken,
  useTotpStep,
} from './repository.ts';
import { checkTotp, hashRecoveryCode, newRecoveryCodes, newTotpSecret, totpUri } from './second-factor.ts';

export interface StaffDeps {
  db: Database;
  counters: Counters;
  mailer: Mailer;
  siteName: string;
}

/** A set-up link works for 24 hours (PRODUCT.md section 5). */
export const SETUP_LINK_HOURS = 24;
/** The TOTP step must follow the password within this time. */
export const SECOND_FACTOR_MINUTES = 5;
/** Wrong second factors allowed per member in 15 minutes, whatever session they come from. */
export const SECOND_FACTOR_TRIES = 5;

const after = (now: Date, ms: number) => new Date(now.getTime() + ms);
const staffLanguage = (member: StaffRow): Language =>
  isLanguage(member.language) ? member.language : DEFAULT_LANGUAGE;

interface Client {
  ip: string;
  userAgent: string | undefined;
  now: Date;
}

const secondFactorKey = (memberId: string) => `staff-2fa:${memberId}`;

/**
 * Counts a try at the member's second factor, from any session or screen: past
 * `SECOND_FACTOR_TRIES` in 15 minutes, the seconds until the window ends.
 */
async function countSecondFactorTry(counters: Counters, memberId: string): Promise<number | undefined> {
  const tries = await counters.hit(secondFactorKey(memberId), 15 * 60);
  return tries.count > SECOND_FACTOR_TRIES ? tries.resetIn : undefined;
}

/** Whether a TOTP code is good and its time step not used before; the step is then used. */
async function spendTotpCode(db: Database, member: StaffRow, code: string, now: Date): Promise<boolean> {
  if (!member.totpSecret) return false;
  const step = await checkTotp(member.totpSecret, code, member.totpLastStep, now);
  return step !== undefined && (await useTotpStep(db, member.id, step));
}

/**
 * First step: the password, with the customers' rules (counted before the check, a decoy hash for
 * an unknown address, a locked address answering like a wrong password). Opens a session that can
 * only take the second factor.
 */
export async function signInWithPassword(
  deps: StaffDeps,
  request: Client & { email: string; password: string },
): Promise<string> {
  const { db, counters } = deps;
  const address = request.email.trim().toLowerCase();
  const [byIp, byAddress, member] = await Promise.all([
    counters.hit(`staff-signin:ip:${request.ip}`, 60 * 60),
    counters.hit(`staff-signin:address:${address}`, 15 * 60),
    findStaffByEmail(db, address),
  ]);
  if (byIp.count > SIGN_IN_TRIES_PER_IP)
    throw new AppError(429, 'too_many_requests', { retryAfter: byIp.resetIn });
  const matches = await verifyPassword(member?.passwordHash ?? (await decoyHash()), request.password);
  if (!member?.setUpAt || !matches || byAddress.count > SIGN_IN_TRIES_PER_ADDRESS) {
    throw new AppError(400, 'credentials_invalid');
  }
  if (member.disabledAt) throw new AppError(403, 'staff_disabled');
  await counters.clear(`staff-signin:address:${address}`);
  return openStaffSession(db, {
    staffId: member.id,
    stage: 'second_factor',
    expiresAt: after(request.now, SECOND_FACTOR_MINUTES * 60_000),
    ...request,
  });
}

/**
 * Second step: a TOTP code (each time step good once) or an unused recovery code. Ends the
 * half-open session and opens the signed-in one under a new token.
 */
export async function signInWithSecondFactor(
  deps: StaffDeps,
  request: Client & { member: StaffRow; sessionId: string; code?: string; recoveryCode?: string },
): Promise<string> {
  const { db, counters } = deps;
  const { member, now } = request;
  const retryAfter = await countSecondFactorTry(counters, member.id);
  if (retryAfter !== undefined) {
    await endStaffSession(db, request.sessionId, now);
    throw new AppError(429, 'too_many_requests', { retryAfter });
  }
  let passed = false;
  if (request.code !== undefined) {
    passed = await spendTotpCode(db, member, request.code, now);
  } else if (request.recoveryCode !== undefined) {
    passed = await useRecoveryCode(db, member.id, hashRecoveryCode(request.recoveryCode), now);
  }
  if (!passed)
    throw new AppError(400, 'second_factor_invalid', { field: request.code ? 'code' : 'recovery_code' });
  await counters.clear(secondFactorKey(member.id));
  return db.transaction(async (tx) => {
    await endStaffSession(tx, request.sessionId, now);
    await recordStaffSignIn(tx, member.id, now);
    return openStaffSession(tx, {
      staffId: member.id,
      stage: 'signed_in',
      expiresAt: after(now, STAFF_SESSION_HOURS * 3_600_000),
      ...request,
    });
  });
}

async function setupStaff(db: Database, token: string, now: Date): Promise<StaffRow> {
  const member = await findSetupStaff(db, token, now);
  if (!member) throw new AppError(404, 'setup_link_invalid');
  return member;
}

/**
 * What the set-up page shows. The TOTP secret is drawn when the link is first opened and kept, so
 * opening it again (a reload, a second tab) shows the same one.
 */
export async function setupInfo(deps: StaffDeps, token: string, now: Date) {
  let member = await setupStaff(deps.db, token, now);
  if (!member.totpSecret) {
    member = await deps.db.transaction(async (tx) => {
      const locked = (await lockStaff(tx, member.id)) ?? member;
      return locked.totpSecret ? locked : updateStaff(tx, member.id, { totpSecret: newTotpSecret() });
    });
  }
  const secret = member.totpSecret ?? '';
  return {
    email: member.email,
    role: member.role,
    totp_secret: secret,
    totp_uri: totpUri(deps.siteName, member.email, secret),
  };
}

/**
 * Finishes a set-up link: the password (the customers' rules) and a first code that proves the
 * authenticator app holds the secret. Answers the recovery codes, shown this once.
 */
export async function finishSetup(
  deps: StaffDeps,
  request: { token: string; password: string; code: string; ip: string; now: Date },
): Promise<string[]> {
  const { db, now } = { db: deps.db, now: request.now };
  const member = await setupStaff(db, request.token, now);
  if (isCommonPassword(request.password, member.email)) {
    throw new AppError(400, 'password_too_common', { field: 'password' });
  }
  const step = member.totpSecret ? await checkTotp(member.totpSecret, request.code, null, now) : undefined;
  if (step === undefined) throw new AppError(400, 'second_factor_invalid', { field: 'code' });
  const passwordHash = await hashPassword(request.password);
  const codes = newRecoveryCodes();
  await db.transaction(async (tx) => {
    if (!(await useSetupToken(tx, request.token, now))) throw new AppError(404, 'setup_link_invalid');
    await completeSetup(tx, member.id, {
      passwordHash,
      totpStep: step,
      recoveryCodeHashes: codes.map(hashRecoveryCode),
      now,
    });
    const actor: Actor = { staffId: member.id, email: member.email, role: member.role, ip: request.ip };
    await recordAudit(
      tx,
      actor,
      {
        action: 'staff.set_up',
        targetType: 'staff',
        targetId: member.id,
        before: { status: 'invited' },
        after: { status: 'active' },
      },
      now,
    );
  });
  return codes;
}

/**
 * Ten new recovery codes for a signed-in member, in place of all theirs (the older, weaker kind
 * included), in one transaction. A change to how they sign in, so their password and a current TOTP
 * code are asked again, both counted as second-factor tries; a wrong one changes nothing. Answers the
 * codes, shown this once; the audit row holds only how many there were.
 */
export async function makeNewRecoveryCodes(
  deps: StaffDeps,
  actor: StaffActor,
  request: { member: StaffRow; password: string; code: string; now: Date },
): Promise<string[]> {
  const { db, counters } = deps;
  const { member, now } = request;
  const retryAfter = await countSecondFactorTry(counters, member.id);
  if (retryAfter !== undefined) throw new AppError(429, 'too_many_requests', { retryAfter });
  if (!member.passwordHash || !(await verifyPassword(member.passwordHash, request.password))) {
    throw new AppError(400, 'credentials_invalid', { field: 'password' });
  }
  if (!(await spendTotpCode(db, member, request.code, now))) {
    throw new AppError(400, 'second_factor_invalid', { field: 'code' });
  }
  await counters.clear(secondFactorKey(member.id));
  const codes = newRecoveryCodes();
  await db.transaction(async (tx) => {
    await lockStaff(tx, member.id);
    const before = await countRecoveryCodesLeft(tx, member.id);
    await replaceRecoveryCodes(tx, member.id, codes.map(hashRecoveryCode));
    await recordAudit(
      tx,
      actor,
      {
        action: 'staff.recovery_codes_replaced',
        targetType: 'staff',
        targetId: member.id,
        before: { recovery_codes_left: before.left, old_recovery_codes_left: before.old },
        after: { recovery_codes_left: codes.length, old_recovery_codes_left: 0 },
      },
      now,
    );
  });
  return codes;
}

/** Sends (or prints) a set-up link; the member's earlier links stop working. */
async function issueLink(tx: Database, memberId: string, now: Date) {
  return issueSetupToken(tx, memberId, after(now, SETUP_LINK_HOURS * 3_600_000));
}

export const setupLink = (origin: string, token: string) => `${origin}/admin/setup/${token}`;

function mailInvite(deps: StaffDeps, member: StaffRow, link: string, now: Date) {
  return deps.mailer.send({
    to: member.email,
    template: 'staff_invite',
    language: staffLanguage(member),
    params: { role: member.role, link, hours: SETUP_LINK_HOURS },
    // Like a code: not delivered past the link's end, and its body dropped once delivered.
    codeExpiresAt: after(now, SETUP_LINK_HOURS * 3_600_000),
  });
}

/** Invites a member by mail; an owner invites any role, an admin only the roles below admin. */
export async function inviteStaff(
  deps: StaffDeps,
  actor: StaffActor,
  request: { email: string; role: StaffRole; language: Language; origin: string; now: Date },
): Promise<StaffRow> {
  if (!assignableRoles(actor.role).includes(request.role)) throw new AppError(403, 'permission_denied');
  const { now } = request;
  let invited: { member: StaffRow; token: string };
  try {
    invited = await deps.db.transaction(async (tx) => {
      const member = await createStaff(tx, {
        email: request.email,
        role: request.role,
        language: request.language,
        invitedBy: actor.staffId,
      });
      const token = await issueLink(tx, member.id, now);
      const after = { email: member.email, role: member.role, language: member.language };
      await recordAudit(
        tx,
        actor,
        { action: 'staff.invite', targetType: 'staff', targetId: member.id, before: null, after },
        now,
      );
      return { member, token };
    });
  } catch (error) {
    if (isStaffEmailClash(error)) throw new AppError(409, 'email_taken', { field: 'email' });
    throw error;
  }
  await mailInvite(deps, invited.member, setupLink(request.origin, invited.token), now);
  return invited.member;
}

/** A new set-up link by mail for a member who has not finished theirs. */
export async function resendInvite(
  deps: StaffDeps,
  actor: StaffActor,
  request: { id: string; origin: string; now: Date },
): Promise<void> {
  const { now } = request;
  const { member, token } = await deps.db.transaction(async (tx) => {
    const member = await lockStaff(tx, request.id);
    if (!member) throw new AppError(404, 'not_found');
    if (!assignableRoles(actor.role).includes(member.role)) throw new AppError(403, 'permission_denied');
    if (member.setUpAt || member.disabledAt) throw new AppError(409, 'staff_change_refused');
    const token = await issueLink(tx, member.id, now);
    await recordAudit(
      tx,
      actor,
      {
        action: 'staff.reinvite',
        targetType: 'staff',
        targetId: member.id,
        before: { status: 'invited' },
        after: { status: 'invited', link_expires_at: after(now, SETUP_LINK_HOURS * 3_600_000).toISOString() },
      },
      now,
    );
    return { member, token };
  });
  await mailInvite(deps, member, setupLink(request.origin, token), now);
}

/**
 * Changes a member's role, or disables or enables them. Nobody changes themselves; an admin changes
 * only the roles below admin, into those roles. So only an owner changes an owner, never the last
 * one: the owner making the change stays. A disabled member's
 * sessions end in the same transaction, and so do those of a member whose role changes.
 */
export async function changeStaff(
  deps: StaffDeps,
  actor: StaffActor,
  request: { id: string; role?: StaffRole; disabled?: boolean; now: Date },
): Promise<StaffRow> {
  const { now } = request;
  return deps.db.transaction(async (tx) => {
    const member = await lockStaff(tx, request.id);
    if (!member) throw new AppError(404, 'not_found');
    const allowed = assignableRoles(actor.role);
    if (!allowed.includes(member.role) || (request.role && !allowed.includes(request.role))) {
      throw new AppError(403, 'permission_denied');
    }
    if (member.id === actor.staffId) throw new AppError(409, 'staff_change_refused');
    const disabledAt =
      request.disabled === undefined
        ? member.disabledAt
        : request.disabled
          ? (member.disabledAt ?? now)
          : null;
    const role = request.role ?? member.role;
    const changed = await updateStaff(tx, member.id, { role, disabledAt });
    if (disabledAt || role !== member.role) await endStaffSessions(tx, member.id, now);
    await recordAudit(
      tx,
      actor,
      {
        action: 'staff.change',
        targetType: 'staff',
        targetId: member.id,
        before: { role: member.role, disabled: member.disabledAt !== null },
        after: { role: changed.role, disabled: changed.disabledAt !== null },
      },
      now,
    );
    return changed;
  });
}

/** `npm run admin -- invite-owner EMAIL`: a new owner, or a new link for one not yet set up. */
export async function inviteOwner(db: Database, email: string, origin: string, now: Date): Promise<string> {
  return db.transaction(async (tx) => {
    const existing = await findStaffByEmail(tx, email);
    if (existing && (existing.setUpAt || existing.role !== 'owner')) {
      throw new Error(`${email} is already a member of staff (${existing.role}); they sign in as usual`);
    }
    const member =
      existing ?? (await createStaff(tx, { email, role: 'owner', language: 'zh', invitedBy: null }));
    const token = await issueLink(tx, member.id, now);
    await recordAudit(
      tx,
      COMMAND_LINE,
      {
        action: 'staff.invite',
        targetType: 'staff',
        targetId: member.id,
        before: null,
        after: { email, role: 'owner' },
      },
      now,
    );
    return setupLink(origin, token);
  });
}
