import { and, count, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { StaffRole } from '@skyway/shared/staff';
import type { SortOrder } from '@skyway/shared/schemas/admin/common';
import type { Database } from '../../db/client.ts';
import { inOrder } from '../../db/lists.ts';
import { violatedConstraint } from '../../db/errors.ts';
import {
  staff,
  staffRecoveryCodes,
  staffSessions,
  staffSetupTokens,
  type StaffRow,
  type StaffSessionRow,
} from '../../db/schema/index.ts';
import { hashToken } from '../../lib/token-hash.ts';
import { newSessionToken } from '../sessions/tokens.ts';
import { RECOVERY_CODE_BITS } from './second-factor.ts';

export const isStaffEmailClash = (error: unknown) => violatedConstraint(error) === 'staff_email_key';

export async function findStaffByEmail(db: Database, email: string): Promise<StaffRow | undefined> {
  const [row] = await db
    .select()
    .from(staff)
    .where(sql`lower(${staff.email}) = lower(${email.trim()})`);
  return row;
}

/** Whether the back office has any member of staff yet, set up or invited. */
export async function hasStaff(db: Database): Promise<boolean> {
  const [row] = await db.select({ id: staff.id }).from(staff).limit(1);
  return row !== undefined;
}

export async function findStaff(db: Database, id: string): Promise<StaffRow | undefined> {
  const [row] = await db.select().from(staff).where(eq(staff.id, id));
  return row;
}

/** The member, locked for the rest of the transaction. */
export async function lockStaff(tx: Database, id: string): Promise<StaffRow | undefined> {
  const [row] = await tx.select().from(staff).where(eq(staff.id, id)).for('update');
  return row;
}

export async function createStaff(
  tx: Database,
  values: { email: string; role: StaffRole; language: string; invitedBy: string | null },
): Promise<StaffRow> {
  const [row] = await tx
    .insert(staff)
    .values({ ...values, email: values.email.trim() })
    .returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}

export async function updateStaff(
  tx: Database,
  id: string,
  values: Partial<Pick<StaffRow, 'role' | 'disabledAt' | 'totpSecret'>>,
): Promise<StaffRow> {
  const [row] = await tx.update(staff).set(values).where(eq(staff.id, id)).returning();
  if (!row) throw new Error(`no staff ${id}`);
  return row;
}

export async function listStaff(db: Database, page: number, size: number, order: SortOrder = 'desc') {
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(staff)
      .orderBy(...inOrder(order, staff.createdAt, staff.id))
      .limit(size)
      .offset((page - 1) * size),
    db.select({ n: count() }).from(staff),
  ]);
  return { rows, total: total?.n ?? 0 };
}

/** A new one-time set-up link's token; the member's earlier links stop working. */
export async function issueSetupToken(tx: Database, staffId: string, expiresAt: Date): Promise<string> {
  const token = newSessionToken();
  await tx.delete(staffSetupTokens).where(eq(staffSetupTokens.staffId, staffId));
  await tx.insert(staffSetupTokens).values({ tokenHash: hashToken(token), staffId, expiresAt });
  return token;
}

/** The member a set-up link is for, while it is unused and unexpired. */
export async function findSetupStaff(db: Database, token: string, now: Date): Promise<StaffRow | undefined> {
  const [row] = await db
    .select({ staff })
    .from(staffSetupTokens)
    .innerJoin(staff, eq(staff.id, staffSetupTokens.staffId))
    .where(
      and(
        eq(staffSetupTokens.tokenHash, hashToken(token)),
        isNull(staffSetupTokens.usedAt),
        gt(staffSetupTokens.expiresAt, now),
      ),
    );
  return row?.staff;
}

/** Spends a set-up link; false when it was spent already (a second tab, a replay). */
export async function useSetupToken(tx: Database, token: string, now: Date): Promise<boolean> {
  const rows = await tx
    .update(staffSetupTokens)
    .set({ usedAt: now })
    .where(and(eq(staffSetupTokens.tokenHash, hashToken(token)), isNull(staffSetupTokens.usedAt)))
    .returning({ staffId: staffSetupTokens.staffId });
  return rows.length === 1;
}

/** The password, confirmed TOTP secret and fresh recovery codes of a member who finished set-up. */
export async function completeSetup(
  tx: Database,
  staffId: string,
  values: { passwordHash: string; totpStep: number; recoveryCodeHashes: string[]; now: Date },
): Promise<void> {
  await tx
    .update(staff)
    .set({ passwordHash: values.passwordHash, totpLastStep: values.totpStep, setUpAt: values.now })
    .where(eq(staff.id, staffId));
  await replaceRecoveryCodes(tx, staffId, values.recoveryCodeHashes);
}

/** The member's recovery codes, used or not, give way to new ones of `RECOVERY_CODE_BITS` each. */
export async function replaceRecoveryCodes(tx: Database, staffId: string, codeHashes: string[]) {
  await tx.delete(staffRecoveryCodes).where(eq(staffRecoveryCodes.staffId, staffId));
  await tx
    .insert(staffRecoveryCodes)
    .values(codeHashes.map((codeHash) => ({ staffId, codeHash, bits: RECOVERY_CODE_BITS })));
}

/**
 * Records a TOTP step as used; false when it (or a later one) was used already. The check and the
 * write are one statement, so two requests with the same code cannot both pass.
 */
export async function useTotpStep(db: Database, staffId: string, step: number): Promise<boolean> {
  const rows = await db
    .update(staff)
    .set({ totpLastStep: step })
    .where(and(eq(staff.id, staffId), or(isNull(staff.totpLastStep), lt(staff.totpLastStep, step))))
    .returning({ id: staff.id });
  return rows.length === 1;
}

/** Spends a recovery code; false when it is not one of the member's unused codes. */
export async function useRecoveryCode(db: Database, staffId: string, codeHash: string, now: Date) {
  const rows = await db
    .update(staffRecoveryCodes)
    .set({ usedAt: now })
    .where(
      and(
        eq(staffRecoveryCodes.staffId, staffId),
        eq(staffRecoveryCodes.codeHash, codeHash),
        isNull(staffRecoveryCodes.usedAt),
      ),
    )
    .returning({ staffId: staffRecoveryCodes.staffId });
  return rows.length === 1;
}

/** The member's unused recovery codes, and how many of them are of the shorter kind given before. */
export async function countRecoveryCodesLeft(db: Database, staffId: string) {
  const [row] = await db
    .select({
      left: count(),
      old: count(sql`case when ${staffRecoveryCodes.bits} < ${RECOVERY_CODE_BITS} then 1 end`),
    })
    .from(staffRecoveryCodes)
    .where(and(eq(staffRecoveryCodes.staffId, staffId), isNull(staffRecoveryCodes.usedAt)));
  return { left: row?.left ?? 0, old: row?.old ?? 0 };
}

/** Opens a session at a stage; its token goes in the cookie, only its hash in the table. */
export async function openStaffSession(
  db: Database,
  values: {
    staffId: string;
    stage: StaffSessionRow['stage'];
    expiresAt: Date;
    now: Date;
    ip: string;
    userAgent: string | undefined;
  },
): Promise<string> {
  const token = newSessionToken();
  await db.insert(staffSessions).values({
    staffId: values.staffId,
    tokenHash: hashToken(token),
    stage: values.stage,
    createdAt: values.now,
    lastSeenAt: values.now,
    expiresAt: values.expiresAt,
    ip: values.ip,
    userAgent: values.userAgent?.slice(0, 300),
  });
  return token;
}

export interface StaffSessionWithStaff {
  session: StaffSessionRow;
  staff: StaffRow;
}

/** The session of a cookie's token and its member, while the session has not been ended. */
export async function findStaffSession(
  db: Database,
  token: string,
): Promise<StaffSessionWithStaff | undefined> {
  const [row] = await db
    .select({ session: staffSessions, staff })
    .from(staffSessions)
    .innerJoin(staff, eq(staff.id, staffSessions.staffId))
    .where(and(eq(staffSessions.tokenHash, hashToken(token)), isNull(staffSessions.endedAt)));
  return row;
}

export async function touchStaffSession(db: Database, sessionId: string, now: Date): Promise<void> {
  await db.update(staffSessions).set({ lastSeenAt: now }).where(eq(staffSessions.id, sessionId));
}

export async function endStaffSession(db: Database, sessionId: string, now: Date): Promise<void> {
  await db
    .update(staffSessions)
    .set({ endedAt: now })
    .where(and(eq(staffSessions.id, sessionId), isNull(staffSessions.endedAt)));
}

/** Ends every session of a member (disabled, or a new role to sign in with). */
export async function endStaffSessions(tx: Database, staffId: string, now: Date): Promise<void> {
  await tx
    .update(staffSessions)
    .set({ endedAt: now })
    .where(and(eq(staffSessions.staffId, staffId), isNull(staffSessions.endedAt)));
}

export async function recordStaffSignIn(db: Database, staffId: string, now: Date): Promise<void> {
  await db.update(staff).set({ lastSignInAt: now }).where(eq(staff.id, staffId));
}
