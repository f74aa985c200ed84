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

/**
 * The connections the buy page starts from: a customer with access renews at the size they have
 * (as `/web/user/info` reads it now, so a payment just made counts); anyone else starts with one.
 */
export function defaultConnections(info: UserInfo | undefined, now: number): number {
  return info && info.expire_user > now ? Math.max(info.connections, 1) : 1;
}
