import type { UserInfo } from '@skyway/shared/user';

/** `/web/user/info` of a signed-in account that never had access, with the fields a test sets. */
export function userInfo(fields: Partial<UserInfo> = {}): UserInfo {
  return {
    account: 'me@example.com',
    expire_user: 0,
    subscribe_type: 1,
    invite_code: 'ME',
    connections: 1,
    pending_connections: null,
    pending_from: 0,
    auto_renew: false,
    app_store_expire: 0,
    app_account_token: 'uuid',
    trial_end: 0,
    ...fields,
  };
}
