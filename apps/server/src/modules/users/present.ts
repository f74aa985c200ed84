import { toUnixSeconds } from '@skyway/shared/dates';
import type { SubscribeType, User, UserInfo } from '@skyway/shared/user';
import type { SignedInUser } from '../sessions/repository.ts';
import type { AccountEnds } from '../access/repository.ts';
import { entitlementOf } from '../access/rules.ts';

/**
 * The user fields that every reply carrying a user has (PRODUCT.md section 2). `connections` are
 * those in force now: a downgrade whose time has come counts even before the job has written it.
 */
export function presentUser(row: SignedInUser, now = new Date()): User {
  return {
    account: row.email,
    expire_user: toUnixSeconds(row.expireAt),
    subscribe_type: row.subscribeType as SubscribeType,
    invite_code: row.inviteCode,
    connections: entitlementOf(row, now).connections,
  };
}

/** `/web/user/info`: the user with the ends of its app-store period and of its free trial, when any. */
export function presentUserInfo(row: SignedInUser, ends: AccountEnds, now = new Date()): UserInfo {
  const entitlement = entitlementOf(row, now);
  return {
    ...presentUser(row, now),
    pending_connections: entitlement.pendingConnections,
    pending_from: entitlement.pendingFrom,
    auto_renew: row.autoRenew,
    app_store_expire: toUnixSeconds(ends.appStoreExpire),
    app_account_token: row.id,
    trial_end: toUnixSeconds(ends.trialEnd),
  };
}
