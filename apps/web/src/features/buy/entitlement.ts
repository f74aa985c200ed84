import type { Entitlement } from '@skyway/shared/plans';
import type { User, UserInfo } from '@skyway/shared/user';

/**
 * The account's access for plan arithmetic. Expiry and connections come from the stored user, which
 * every reply carrying `expire_user` keeps current (a trial claimed on this page, for one); the pending
 * downgrade is only in `/web/user/info`, which is read again after every payment.
 */
export function entitlementOf(user: User | null, info: UserInfo | undefined): Entitlement {
  return {
    expireAt: user?.expire_user ?? info?.expire_user ?? 0,
    connections: user?.connections ?? info?.connections ?? 0,
    pendingConnections: info?.pending_connections ?? null,
    pendingFrom: info?.pending_from ?? 0,
  };
}
