import { toUnixSeconds } from '@skyway/shared/dates';
import { DAY_SECONDS, type Entitlement } from '@skyway/shared/plans';
import type { SubscribeType } from '@skyway/shared/user';
import type { Database } from '../../db/client.ts';
import type { UserRow } from '../../db/schema/index.ts';
import { type AccessChange, lockOrderOwnerRow, lockUserRow, writeAccess } from './repository.ts';
import {
  type AccessReason,
  addPaidTime,
  addTime,
  entitlementOf,
  removeTime,
  subscribeTypeAfterPurchase,
} from './rules.ts';

/*
 * The lock order of every transaction that changes an account's access or its money, so that two of
 * them never wait on each other:
 *
 *   1. the account's `users` row (taken here, first, by inAccountTransaction);
 *   2. its orders (order creation, fulfilment);
 *   3. its App Store subscription, then that subscription's transactions.
 *
 * Rows of other tables a transaction writes under unique keys (payment events, payments, trial
 * claims, rewards) come after the account's row.
 */

/** An account whose row this transaction holds locked: the one way to change its access. */
export class LockedAccount {
  constructor(
    /** The transaction: the caller's further writes (orders, claims) go through it. */
    readonly tx: Database,
    /** The row as locked, before any change made through this object. */
    readonly user: UserRow,
    readonly now: Date,
  ) {}

  get nowSeconds(): number {
    return toUnixSeconds(this.now);
  }

  /** Access now, a due downgrade applied. */
  get entitlement(): Entitlement {
    return entitlementOf(this.user, this.now);
  }

  /** Writes the new access with its ledger row; returns the new expiry. */
  change(change: AccessChange): Promise<Date | null> {
    return writeAccess(this.tx, this.user, change, this.now);
  }

  /** Time added at the current size from max(now, expiry): the trial, invitation rewards, a redeem code's days. */
  addTime(reason: AccessReason, seconds: number, ref?: string): Promise<Date | null> {
    return this.change({ reason, ref, after: addTime(this.entitlement, seconds, this.nowSeconds) });
  }

  /**
   * Time added by staff from max(now, expiry), or taken back (negative) but not below now, with a
   * scheduled downgrade moving with the end.
   */
  adjustTime(seconds: number): Promise<Date | null> {
    const after =
      seconds >= 0
        ? addTime(this.entitlement, seconds, this.nowSeconds)
        : removeTime(this.entitlement, -seconds, this.nowSeconds);
    return this.change({ reason: 'staff_adjustment', after });
  }

  /**
   * A refunded order: its days taken back (never below now; its connections stay, as a refund of an
   * upgrade cannot know what the account had before), or kept. A ledger row either way, with the order.
   */
  refund(order: { id: string; days: number }, takeBack: boolean): Promise<Date | null> {
    const after = takeBack
      ? removeTime(this.entitlement, order.days * DAY_SECONDS, this.nowSeconds)
      : this.entitlement;
    return this.change({ reason: 'refund', ref: order.id, after, recordUnchanged: true });
  }

  /** A paid order's time and connections, by the purchase rules. */
  purchase(
    order: { id: string; days: number; connections: number },
    reason: AccessReason = 'purchase',
  ): Promise<Date | null> {
    return this.change({
      reason,
      ref: order.id,
      after: addPaidTime(
        this.entitlement,
        { seconds: order.days * DAY_SECONDS, connections: order.connections },
        this.nowSeconds,
      ),
      subscribeType: subscribeTypeAfterPurchase(this.user.subscribeType as SubscribeType),
    });
  }
}

/**
 * The one entry point for changing an account's access, or anything else that must wait for it (an
 * order, a registration through its invite link): a transaction whose first lock is the account's
 * row, handed to `work` as a LockedAccount.
 */
export function inAccountTransaction<T>(
  db: Database,
  userId: string,
  now: Date,
  work: (account: LockedAccount) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => work(new LockedAccount(tx, await lockUserRow(tx, userId), now)));
}

/**
 * inAccountTransaction for the account that placed an order, its row found and locked in the same
 * statement: undefined, with nothing done, when there is no such order.
 */
export function inOrderOwnerTransaction<T>(
  db: Database,
  orderId: string,
  now: Date,
  work: (account: LockedAccount) => Promise<T>,
): Promise<T | undefined> {
  return db.transaction(async (tx) => {
    const user = await lockOrderOwnerRow(tx, orderId);
    return user ? work(new LockedAccount(tx, user, now)) : undefined;
  });
}
