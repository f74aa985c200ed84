import { and, count, desc, eq, gte, inArray, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { inviteRewards, trialClaims, users } from '../../db/schema/index.ts';

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

const newestInvitedFirst = [desc(users.createdAt), desc(users.id)];

/**
 * The accounts an inviter brought, newest first, each with its reward if it earned one. The page's
 * ids are read off `users_invited_by_idx` alone, so a deep page skips index entries, not rows;
 * only the page's own accounts and rewards are read.
 */
export async function invitedPage(db: Database, inviterId: string, page: { limit: number; offset: number }) {
  const pageIds = db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.invitedBy, inviterId))
    .orderBy(...newestInvitedFirst)
    .limit(page.limit)
    .offset(page.offset);
  return db
    .select({
      email: users.email,
      createdAt: users.createdAt,
      minutes: inviteRewards.minutes,
      claimedAt: inviteRewards.claimedAt,
    })
    .from(users)
    .leftJoin(inviteRewards, eq(inviteRewards.inviteeId, users.id))
    .where(inArray(users.id, pageIds))
    .orderBy(...newestInvitedFirst);
}

/**
 * How many accounts an inviter brought, and the rewards not yet withdrawn, in one statement: the
 * count reads `users_invited_by_idx` alone, the rewards `invite_rewards_unclaimed_idx` alone.
 */
export async function invitationSummary(db: Database, inviterId: string) {
  const invited = db.select({ n: count() }).from(users).where(eq(users.invitedBy, inviterId));
  const [row] = await db
    .select({
      total: sql<number>`(${invited})`.mapWith(Number),
      unclaimedUsers: count(),
      unclaimedMinutes: sql<string>`coalesce(sum(${inviteRewards.minutes}), 0)::text`,
    })
    .from(inviteRewards)
    .where(and(eq(inviteRewards.inviterId, inviterId), isNull(inviteRewards.claimedAt)));
  return {
    total: row?.total ?? 0,
    unclaimedUsers: row?.unclaimedUsers ?? 0,
    unclaimedMinutes: Number(row?.unclaimedMinutes ?? 0),
  };
}
