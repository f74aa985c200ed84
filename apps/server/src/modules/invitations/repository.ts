import { and, asc, count, desc, eq, gte, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { expiryLedger, inviteRewards, trialClaims, users } from '../../db/schema/index.ts';

/** Records the trial claim; false when the account has one already (the primary key decides). */
export async function insertTrialClaim(
  db: Database,
  userId: string,
  minutes: number,
  now: Date,
): Promise<boolean> {
  const rows = await db
    .insert(trialClaims)
    .values({ userId, minutes, claimedAt: now })
    .onConflictDoNothing()
    .returning({ userId: trialClaims.userId });
  return rows.length === 1;
}

/**
 * When the access the free trial granted ends: the expiry its ledger row set (the trial adds to time
 * the account already had), or null when the account never claimed it.
 */
export async function trialEnd(db: Database, userId: string): Promise<Date | null> {
  const [row] = await db
    .select({ toExpireAt: expiryLedger.toExpireAt })
    .from(expiryLedger)
    .where(and(eq(expiryLedger.userId, userId), eq(expiryLedger.reason, 'trial')))
    .orderBy(asc(expiryLedger.createdAt))
    .limit(1);
  return row?.toExpireAt ?? null;
}

export async function rewardsSince(db: Database, inviterId: string, since: Date): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(inviteRewards)
    .where(and(eq(inviteRewards.inviterId, inviterId), gte(inviteRewards.createdAt, since)));
  return row?.n ?? 0;
}

export async function insertReward(
  db: Database,
  reward: { inviterId: string; inviteeId: string; minutes: number; now: Date },
): Promise<void> {
  await db
    .insert(inviteRewards)
    .values({
      inviterId: reward.inviterId,
      inviteeId: reward.inviteeId,
      minutes: reward.minutes,
      createdAt: reward.now,
    })
    .onConflictDoNothing();
}

/** Marks every unclaimed reward of an inviter claimed; returns the minutes they carried. */
export async function claimRewards(db: Database, inviterId: string, now: Date): Promise<number> {
  const claimed = await db
    .update(inviteRewards)
    .set({ claimedAt: now })
    .where(and(eq(inviteRewards.inviterId, inviterId), isNull(inviteRewards.claimedAt)))
    .returning({ minutes: inviteRewards.minutes });
  return claimed.reduce((sum, reward) => sum + reward.minutes, 0);
}

/** The accounts an inviter brought, newest first, each with its reward if it earned one. */
export async function invitedPage(db: Database, inviterId: string, page: { limit: number; offset: number }) {
  return db
    .select({
      email: users.email,
      createdAt: users.createdAt,
      minutes: inviteRewards.minutes,
      claimedAt: inviteRewards.claimedAt,
    })
    .from(users)
    .leftJoin(inviteRewards, eq(inviteRewards.inviteeId, users.id))
    .where(eq(users.invitedBy, inviterId))
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(page.limit)
    .offset(page.offset);
}

export async function invitationSummary(db: Database, inviterId: string) {
  const [invited] = await db.select({ n: count() }).from(users).where(eq(users.invitedBy, inviterId));
  const [unclaimed] = await db
    .select({ n: count(), minutes: sql<string>`coalesce(sum(${inviteRewards.minutes}), 0)::text` })
    .from(inviteRewards)
    .where(and(eq(inviteRewards.inviterId, inviterId), isNull(inviteRewards.claimedAt)));
  return {
    total: invited?.n ?? 0,
    unclaimedUsers: unclaimed?.n ?? 0,
    unclaimedMinutes: Number(unclaimed?.minutes ?? 0),
  };
}
