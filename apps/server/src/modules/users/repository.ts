import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { users, type UserRow } from '../../db/schema/index.ts';
import { newInviteCode } from './invite-code.ts';

export interface NewUser {
  email: string;
  passwordHash?: string;
  language?: string;
}

const INVITE_CODE_ATTEMPTS = 5;

function isInviteCodeClash(error: unknown): boolean {
  const cause = (error as { cause?: { constraint?: string } }).cause ?? error;
  return (cause as { constraint?: string }).constraint === 'users_invite_code_key';
}

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

export async function findUserByEmail(db: Database, email: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(eq(sql`lower(${users.email})`, email.trim().toLowerCase()))
    .limit(1);
  return row;
}
