import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { violatedConstraint } from '../../db/errors.ts';
import { preparedStatement } from '../../db/prepared.ts';
import { users, type UserRow } from '../../db/schema/index.ts';
import { newInviteCode } from './invite-code.ts';

export interface NewUser {
  email: string;
  passwordHash?: string;
  language?: string;
  invitedBy?: string;
  lastLoginAt?: Date;
}

const INVITE_CODE_ATTEMPTS = 5;

const isInviteCodeClash = (error: unknown) => violatedConstraint(error) === 'users_invite_code_key';

/** Creates a user with a fresh invite code, drawing again in the rare case of a clash. */
export async function createUser(db: Database, values: NewUser): Promise<UserRow> {
  for (let attempt = 1; ; attempt++) {
    try {
      const [row] = await db
        .insert(users)
        .values({ ...values, email: values.email.trim(), inviteCode: newInviteCode() })
        .returning();
      if (!row) throw new Error('insert returned no row');
      return row;
    } catch (error) {
      if (attempt >= INVITE_CODE_ATTEMPTS || !isInviteCodeClash(error)) throw error;
    }
  }
}

// Every sign-in, code request and reset starts here.
const userByEmail = preparedStatement((db) =>
  db
    .select()
    .from(users)
    .where(eq(sql`lower(${users.email})`, sql.placeholder('email')))
    .limit(1)
    .prepare('user_by_email'),
);

export async function findUserByEmail(db: Database, email: string): Promise<UserRow | undefined> {
  const [row] = await userByEmail(db).execute({ email: email.trim().toLowerCase() });
  return row;
}

export async function findUserByInviteCode(db: Database, inviteCode: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(eq(users.inviteCode, inviteCode.trim().toUpperCase()))
    .limit(1);
  return row;
}

/** Whether an account has this id (an App Store appAccountToken names one). */
export async function userExists(db: Database, id: string): Promise<boolean> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.id, id));
  return row !== undefined;
}

/** The password hash of an account, read only where a password is checked (undefined: no password). */
export async function findPasswordHash(db: Database, id: string): Promise<string | undefined> {
  const [row] = await db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, id));
  return row?.passwordHash ?? undefined;
}

export async function setPasswordHash(db: Database, id: string, passwordHash: string): Promise<void> {
  await db.update(users).set({ passwordHash }).where(eq(users.id, id));
}

export async function setEmail(db: Database, id: string, email: string): Promise<UserRow> {
  const [row] = await db.update(users).set({ email: email.trim() }).where(eq(users.id, id)).returning();
  if (!row) throw new Error(`no user ${id}`);
  return row;
}

/** True when an insert or update failed on the case-insensitive unique e-mail index. */
export const isEmailClash = (error: unknown) => violatedConstraint(error) === 'users_email_key';
