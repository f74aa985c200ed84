import { toUnixSeconds } from '@skyway/shared/dates';
import { applyTime, type Entitlement, settleEntitlement } from '@skyway/shared/plans';
import { SUBSCRIBE_TYPES, type SubscribeType } from '@skyway/shared/user';

/**
 * Why an account's access changed, as its ledger row says: `app_store` an App Store notification gave
 * or changed time, `app_store_refund` Apple took it back, `downgrade` a bought downgrade came due,
 * `staff_adjustment` staff added or took time in the back office (its reason is in the audit log),
 * `redeem_code` a redeem code gave what a purchase would, or days (its order record is the ref).
 */
export type AccessReason =
  | 'trial'
  | 'invite_reward'
  | 'purchase'
  | 'app_store'
  | 'app_store_refund'
  | 'downgrade'
  | 'staff_adjustment'
  | 'redeem_code'
  | 'refund';

/** The access columns of an account as stored (dates, null = none). */
export interface StoredAccess {
  expireAt: Date | null;
  connections: number;
  pendingConnections: number | null;
  pendingFrom: Date | null;
}

/** The account's access as plan arithmetic sees it, a pending downgrade whose time has come applied. */
export function entitlementOf(access: StoredAccess, now: Date): Entitlement {
  return settleEntitlement(
    {
      expireAt: toUnixSeconds(access.expireAt),
      connections: access.connections,
      pendingConnections: access.pendingConnections,
      pendingFrom: toUnixSeconds(access.pendingFrom),
    },
    toUnixSeconds(now),
  );
}

/** `seconds` more from max(now, expiry) at the current size: the trial and invitation rewards. */
export function addTime(entitlement: Entitlement, seconds: number, now: number): Entitlement {
  return { ...entitlement, expireAt: Math.max(now, entitlement.expireAt) + seconds };
}

/**
 * Bought time at a size, by the purchase rules the buy page previews (`@skyway/shared/plans`, so that
 * the preview and the credit are one arithmetic): a paid order's days, or a store period to the second.
 */
export function addPaidTime(
  entitlement: Entitlement,
  bought: { seconds: number; connections: number },
  now: number,
): Entitlement {
  return applyTime(entitlement, bought, now).after;
}

/**
 * Takes `seconds` off an account's time, not below now: the end moves earlier, and a scheduled
 * downgrade with it (it comes due sooner, or at once). Connections in force now stay as they are.
 */
export function removeTime(entitlement: Entitlement, removed: number, now: number): Entitlement {
  if (removed <= 0 || entitlement.expireAt <= now) return entitlement;
  const expireAt = Math.max(now, entitlement.expireAt - removed);
  if (expireAt <= now) return { ...entitlement, expireAt: now, pendingConnections: null, pendingFrom: 0 };
  if (entitlement.pendingConnections === null) return { ...entitlement, expireAt };
  return settleEntitlement(
    { ...entitlement, expireAt, pendingFrom: Math.max(now, entitlement.pendingFrom - removed) },
    now,
  );
}

export const sameEntitlement = (a: Entitlement, b: Entitlement) =>
  a.expireAt === b.expireAt &&
  a.connections === b.connections &&
  a.pendingConnections === b.pendingConnections &&
  a.pendingFrom === b.pendingFrom;

/** Card time makes a card subscriber, but an App Store subscriber stays one: the store keeps renewing. */
export const subscribeTypeAfterPurchase = (current: SubscribeType): SubscribeType =>
  current === SUBSCRIBE_TYPES.appStore ? SUBSCRIBE_TYPES.appStore : SUBSCRIBE_TYPES.card;
