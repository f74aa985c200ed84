import type { SubscribeType, User, UserInfo } from '@skyway/shared/user';
import type { UserRow } from '../../db/schema/index.ts';

export const toUnixSeconds = (date: Date | null) => (date ? Math.floor(date.getTime() / 1000) : 0);

/** The user fields that every reply carrying a user has (PRODUCT.md section 2). */
export function presentUser(row: UserRow): User {
  return {
    account: row.email,
    expire_user: toUnixSeconds(row.expireAt),
    subscribe_type: row.subscribeType as SubscribeType,
    invite_code: row.inviteCode,
    connections: row.connections,
  };
}

export function presentUserInfo(row: UserRow): UserInfo {
  return {
    ...presentUser(row),
    pending_connections: row.pendingConnections,
    auto_renew: row.autoRenew,
    app_account_token: row.id,
  };
}
