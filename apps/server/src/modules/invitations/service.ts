import { toUnixSeconds } from '@skyway/shared/dates';
import type { InviteConf, InviteList, TimeGrant } from '@skyway/shared/invitations';
import type { Database } from '../../db/client.ts';
import type { UserRow } from '../../db/schema/index.ts';
import type { SignedInUser } from '../sessions/repository.ts';
import { AppError } from '../../http/errors.ts';
import { inAccountTransaction } from '../access/access.ts';
import { readSettings } from '../settings/repository.ts';
import { canonicalEmail, maskEmail } from './addresses.ts';
import {
  claimRewards,
  insertReward,
  insertTrialClaim,
  invitationSummary,
  invitedPage,
  rewardsSince,
} from './repository.ts';

export async function inviteConf(db: Database): Promise<InviteConf> {
  const settings = await readSettings(db);
  return {
    open_trial: settings.open_trial,
    trial_minute: settings.trial_minute,
    invite_minute: settings.invite_minute,
  };
}

/** The free trial: once per account (the database's rule), from max(now, expiry). */
export async function claimTrial(db: Database, userId: string, now: Date): Promise<TimeGrant> {
  const settings = await readSettings(db);
  if (settings.open_trial !== '1') throw new AppError(409, 'trial_closed');
  const minutes = settings.trial_minute;
  return inAccountTransaction(db, userId, now, async (account) => {
    if (!(await insertTrialClaim(account.tx, userId, minutes, now))) throw new AppError(409, 'trial_claimed');
    const expireAt = await account.addTime('trial', minutes * 60);
    return { trial_time: minutes, expire_user: toUnixSeconds(expireAt) };
  });
}

const startOfUtcDay = (now: Date) =>
  new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));

/**
 * Called in the registration's transaction, which holds the inviter's row lock (taken before the
 * invitee's row, see register): concurrent registrations through one link count one after another.
 * The inviter earns invite_minute unclaimed minutes, unless the new account is the inviter's own
 * address in disguise or the inviter has reached the day's cap.
 */
export async function rewardInviter(
  db: Database,
  inviter: UserRow,
  invitee: UserRow,
  now: Date,
): Promise<void> {
  if (canonicalEmail(inviter.email) === canonicalEmail(invitee.email)) return;
  const settings = await readSettings(db);
  if ((await rewardsSince(db, inviter.id, startOfUtcDay(now))) >= settings.invite_daily_cap) return;
  await insertReward(db, {
    inviterId: inviter.id,
    inviteeId: invitee.id,
    minutes: settings.invite_minute,
    now,
  });
}

export async function listInvitations(
  db: Database,
  user: SignedInUser,
  page: { page: number; size: number },
): Promise<InviteList> {
  const [summary, rows] = await Promise.all([
    invitationSummary(db, user.id),
    invitedPage(db, user.id, { limit: page.size, offset: (page.page - 1) * page.size }),
  ]);
  return {
    total: summary.total,
    unclaimed_users: summary.unclaimedUsers,
    unclaimed_minutes: summary.unclaimedMinutes,
    invite_code: user.inviteCode,
    list: rows.map((row) => ({
      account: maskEmail(row.email),
      complete_time: toUnixSeconds(row.createdAt),
      trial_minute: row.minutes ?? 0,
      claimed: row.claimedAt !== null,
    })),
  };
}

/** Moves every unclaimed reward minute onto the inviter's expiry, in one transaction, exactly once. */
export async function withdrawRewards(db: Database, userId: string, now: Date): Promise<TimeGrant> {
  return inAccountTransaction(db, userId, now, async (account) => {
    const minutes = await claimRewards(account.tx, userId, now);
    if (minutes === 0) return { trial_time: 0, expire_user: toUnixSeconds(account.user.expireAt) };
    const expireAt = await account.addTime('invite_reward', minutes * 60);
    return { trial_time: minutes, expire_user: toUnixSeconds(expireAt) };
  });
}
