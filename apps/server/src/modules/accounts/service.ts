import { EMAIL_CODE_LENGTH, type EmailCodeScene } from '@skyway/shared/accounts';
import { DEFAULT_LANGUAGE, isLanguage, type Language } from '@skyway/shared/languages';
import type { SessionUser } from '@skyway/shared/user';
import type { Database } from '../../db/client.ts';
import type { UserRow } from '../../db/schema/index.ts';
import { AppError } from '../../http/errors.ts';
import {
  checkCodeLimits,
  CODE_LIFETIME_MINUTES,
  type IssuedCode,
  issueCode,
  normalizeEmail,
  useCode,
} from '../email-codes/service.ts';
import type { Counters } from '../limits/counters.ts';
import type { MailMessage, Mailer } from '../mail/mailer.ts';
import { inAccountTransaction } from '../access/access.ts';
import { createSession, revokeUserSessions, type SignedInUser } from '../sessions/repository.ts';
import { presentUser } from '../users/present.ts';
import {
  createUser,
  findPasswordHash,
  findUserByEmail,
  findUserByInviteCode,
  isEmailClash,
  setEmail,
  setPasswordHash,
} from '../users/repository.ts';
import {
  decoyHash,
  hashPassword,
  isCommonPassword,
  SIGN_IN_TRIES_PER_ADDRESS,
  SIGN_IN_TRIES_PER_IP,
  verifyPassword,
} from '../../lib/passwords.ts';
import { recordSignInWithSession } from './repository.ts';
import { rewardInviter } from '../invitations/service.ts';

export interface AccountDeps {
  db: Database;
  mailer: Mailer;
  counters: Counters;
}

/** The count of failed sign-ins of an address: past the limit, the address answers like a wrong password. */
const signInLockKey = (email: string) => `signin:address:${normalizeEmail(email)}`;

const userLanguage = (user: Pick<UserRow, 'language'>): Language =>
  isLanguage(user.language) ? user.language : DEFAULT_LANGUAGE;

async function openSession(db: Database, user: UserRow, language: Language, now: Date): Promise<SessionUser> {
  const token = await recordSignInWithSession(db, user.id, language, now);
  // The reply's fields are none that the sign-in changes.
  return { ...presentUser(user), token };
}

function refuseCommonPassword(password: string, email: string, field: string): void {
  if (isCommonPassword(password, email)) throw new AppError(400, 'password_too_common', { field });
}

interface CodeRequest {
  email: string;
  scene: EmailCodeScene;
  ip: string;
  language: Language;
  now: Date;
  /** The caller's user: always there for the change-email scene (the route requires a live session). */
  signedIn: SignedInUser | null;
}

/** Stands for the code in a withheld code mail: as long as a code, so that its row is as long too. */
const MASKED_CODE = '-'.repeat(EMAIL_CODE_LENGTH);

/**
 * The one message a code request writes: the code; for a registration code to a taken address, the
 * notice that stands in for it; and where nothing may go (a reset for an address without a usable
 * account, a change of e-mail to a taken address), the code mail withheld: written with its code
 * masked, never delivered.
 */
function codeRequestMail(request: CodeRequest, owner: UserRow | undefined, issued: IssuedCode): MailMessage {
  const codeMail = (code: string) => ({
    template: `code_${request.scene}` as const,
    params: { code, minutes: CODE_LIFETIME_MINUTES },
    codeExpiresAt: issued.expiresAt,
  });
  const withheld = { ...codeMail(MASKED_CODE), withhold: true };
  switch (request.scene) {
    case 'register':
      return owner
        ? { to: owner.email, template: 'account_exists', language: userLanguage(owner) }
        : { ...codeMail(issued.code), to: request.email, language: request.language };
    case 'forget':
      return owner && !owner.revokedAt
        ? { ...codeMail(issued.code), to: owner.email, language: userLanguage(owner) }
        : { ...withheld, to: request.email, language: request.language };
    case 'email': {
      // A taken address gets nothing now; the change itself answers 409 to its owner's session only.
      const language = request.signedIn ? userLanguage(request.signedIn) : request.language;
      return { ...(owner ? withheld : codeMail(issued.code)), to: request.email, language };
    }
  }
}

/**
 * Sends a code, or the mail that stands in for one, and answers the same either way: whether an
 * address has an account shows only in its own mailbox. Every request stores one code and writes one
 * outbox row whatever the case, so that the same writes leave no difference in the reply's timing.
 */
export async function requestEmailCode(deps: AccountDeps, request: CodeRequest): Promise<void> {
  const { db, mailer, counters } = deps;
  await checkCodeLimits(counters, request);
  const owner = await findUserByEmail(db, request.email);
  const issued = await issueCode(db, request);
  await mailer.send(codeRequestMail(request, owner, issued));
}

export async function register(
  deps: AccountDeps,
  request: {
    email: string;
    password: string;
    emailCode: string;
    inviteCode?: string;
    language: Language;
    now: Date;
  },
): Promise<SessionUser> {
  const { db } = deps;
  refuseCommonPassword(request.password, request.email, 'password');
  const passwordHash = await hashPassword(request.password);
  const inviter = request.inviteCode ? await findUserByInviteCode(db, request.inviteCode) : undefined;
  try {
    // Outside the transaction: a spent try must stay spent when what follows fails.
    await useCode(db, {
      email: request.email,
      scene: 'register',
      code: request.emailCode,
      now: request.now,
    });
    const create = async (tx: Database) => {
      const user = await createUser(tx, {
        email: request.email,
        passwordHash,
        language: request.language,
        invitedBy: inviter?.id,
      });
      if (inviter) await rewardInviter(tx, inviter, user, request.now);
      return openSession(tx, user, request.language, request.now);
    };
    // Through an invite link, the inviter's account is locked first. Inserting the invitee takes a
    // key-share lock on the inviter through the foreign key, and the reward needs the row for
    // update: taken in that order by parallel registrations through one link, the two deadlock.
    return await (inviter
      ? inAccountTransaction(db, inviter.id, request.now, ({ tx }) => create(tx))
      : db.transaction(create));
  } catch (error) {
    if (isEmailClash(error)) throw new AppError(409, 'email_taken', { field: 'email' });
    throw error;
  }
}

export async function signIn(
  deps: AccountDeps,
  request: { email: string; password: string; ip: string; language: Language; now: Date },
): Promise<SessionUser> {
  const { db, counters } = deps;
  const address = normalizeEmail(request.email);
  // Each try is counted before the password is checked, so parallel guesses cannot slip past. The
  // two counts and the lookup go out together: one round trip's wait before the hash, not three.
  const [byIp, byAddress, user] = await Promise.all([
    counters.hit(`signin:ip:${request.ip}`, 60 * 60),
    counters.hit(signInLockKey(address), 15 * 60),
    findUserByEmail(db, address),
  ]);
  if (byIp.count > SIGN_IN_TRIES_PER_IP)
    throw new AppError(429, 'too_many_requests', { retryAfter: byIp.resetIn });
  const matches = await verifyPassword(user?.passwordHash ?? (await decoyHash()), request.password);
  // A locked address answers exactly like a wrong password, whatever the password was.
  if (!user || !matches || byAddress.count > SIGN_IN_TRIES_PER_ADDRESS) {
    throw new AppError(400, 'credentials_invalid');
  }
  if (user.revokedAt) throw new AppError(403, 'account_revoked');
  const [, session] = await Promise.all([
    counters.clear(signInLockKey(address)),
    openSession(db, user, request.language, request.now),
  ]);
  return session;
}

export async function resetPassword(
  deps: AccountDeps,
  request: { email: string; emailCode: string; password: string; now: Date },
): Promise<void> {
  const { db, mailer } = deps;
  refuseCommonPassword(request.password, request.email, 'password');
  const passwordHash = await hashPassword(request.password);
  // Outside the transaction: a spent try must stay spent when what follows fails.
  await useCode(db, { email: request.email, scene: 'forget', code: request.emailCode, now: request.now });
  const user = await db.transaction(async (tx) => {
    const owner = await findUserByEmail(tx, request.email);
    if (!owner || owner.revokedAt) throw new AppError(400, 'code_invalid', { field: 'email_code' });
    await setPasswordHash(tx, owner.id, passwordHash);
    await revokeUserSessions(tx, owner.id, { now: request.now });
    return owner;
  });
  // The owner proved the mailbox is theirs: failed guesses by anyone else no longer lock them out.
  await deps.counters.clear(signInLockKey(user.email));
  await mailer.send({ to: user.email, template: 'password_changed', language: userLanguage(user) });
}

export async function changePassword(
  deps: AccountDeps,
  request: { user: SignedInUser; sessionId: string; oldPassword: string; newPassword: string; now: Date },
): Promise<void> {
  const { db, mailer, counters } = deps;
  const tries = await counters.hit(`password:user:${request.user.id}`, 15 * 60);
  if (tries.count > SIGN_IN_TRIES_PER_ADDRESS)
    throw new AppError(429, 'too_many_requests', { retryAfter: tries.resetIn });
  const currentHash = await findPasswordHash(db, request.user.id);
  if (!currentHash || !(await verifyPassword(currentHash, request.oldPassword))) {
    throw new AppError(400, 'credentials_invalid', { field: 'old_pwd' });
  }
  refuseCommonPassword(request.newPassword, request.user.email, 'new_pwd');
  const passwordHash = await hashPassword(request.newPassword);
  await db.transaction(async (tx) => {
    await setPasswordHash(tx, request.user.id, passwordHash);
    await revokeUserSessions(tx, request.user.id, { keep: request.sessionId, now: request.now });
  });
  await counters.clear(`password:user:${request.user.id}`);
  await mailer.send({
    to: request.user.email,
    template: 'password_changed',
    language: userLanguage(request.user),
  });
}

/**
 * Moves the account to a new address proven by its code. Every session ends, this one too, and
 * this browser gets a new one; the old address is told.
 */
export async function changeEmail(
  deps: AccountDeps,
  request: { user: SignedInUser; email: string; emailCode: string; now: Date },
): Promise<SessionUser> {
  const { db, mailer } = deps;
  const { user } = request;
  if (normalizeEmail(request.email) === normalizeEmail(user.email)) {
    throw new AppError(409, 'email_taken', { field: 'email' });
  }
  let changed: SessionUser;
  try {
    // Outside the transaction: a spent try must stay spent when what follows fails.
    await useCode(db, { email: request.email, scene: 'email', code: request.emailCode, now: request.now });
    changed = await db.transaction(async (tx) => {
      const moved = await setEmail(tx, user.id, request.email);
      await revokeUserSessions(tx, user.id, { now: request.now });
      const token = await createSession(tx, user.id, request.now);
      return { ...presentUser(moved), token };
    });
  } catch (error) {
    if (isEmailClash(error)) throw new AppError(409, 'email_taken', { field: 'email' });
    throw error;
  }
  await mailer.send({
    to: user.email,
    template: 'email_changed',
    language: userLanguage(user),
    params: { new_email: changed.account },
  });
  return changed;
}
