import type { User, UserInfo } from '@skyway/shared/user';
import { startSession } from '../lib/session.ts';

/** The stored user of an account that never had access, with the fields a test sets. */
export function user(fields: Partial<User> = {}): User {
  return {
    account: 'me@example.com',
    expire_user: 0,
    subscribe_type: 1,
    invite_code: 'ME',
    connections: 1,
    ...fields,
  };
}

/** Signs this browser in as user(fields). */
export function signIn(fields: Partial<User> = {}): void {
  startSession({ token: 'T', ...user(fields) });
}

/** `/web/user/info` of a signed-in account that never had access, with the fields a test sets. */
export function userInfo(fields: Partial<UserInfo> = {}): UserInfo {
  return {
    ...user(),
    pending_connections: null,
    pending_from: 0,
    auto_renew: false,
    app_store_expire: 0,
    app_account_token: 'uuid',
    trial_end: 0,
    ...fields,
  };
}
