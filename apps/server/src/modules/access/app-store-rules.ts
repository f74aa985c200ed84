import type { Entitlement } from '@skyway/shared/plans';
import { SUBSCRIBE_TYPES, type SubscribeType } from '@skyway/shared/user';
import { type AccessReason, addPaidTime, removeTime, sameEntitlement } from './rules.ts';

/*
 * What one App Store notification does to an account and its subscription, as pure functions of
 * their state: times are unix seconds (0 = none), `signedDate`s milliseconds as Apple signs them. The App Store adapter
 * (payments/apple.ts) loads the state under the account's lock, and saves what comes out.
 * docs/decisions/app-store.md gives the rules in words.
 */

/** A transaction as the notification carries it. */
export interface StoreTransaction {
  id: string;
  originalId: string;
  productId: string;
  purchasedAt: number;
  expiresAt: number;
  revokedAt: number;
  /** Milli-percent of the transaction refunded when Apple refunded part of it (REFUND_PRORATED). */
  refundedShare: number | undefined;
}

/** The notification itself: its type, when Apple signed it, and the renewal info it carries. */
export interface StoreNotice {
  type: string;
  subtype: string | undefined;
  signedDate: number;
  renewal?: {
    autoRenewStatus?: number;
    autoRenewProductId?: string;
    /** Unix seconds, like the transaction's times. */
    gracePeriodEndsAt?: number;
  };
}

/** The connections each product gives (APPLE_PRODUCTS). */
export type StoreProducts = Record<string, { connections: number }>;

/** A product id missing from APPLE_PRODUCTS: nothing is recorded, so Apple's retry (or the history command) can apply it once the operator has added it. */
export class UnknownAppleProduct extends Error {
  constructor(readonly productId: string) {
    super(`App Store product "${productId}" is not in APPLE_PRODUCTS`);
    this.name = 'UnknownAppleProduct';
  }
}

export function productOf(products: StoreProducts, productId: string): { connections: number } {
  const product = Object.hasOwn(products, productId) ? products[productId] : undefined;
  if (!product) throw new UnknownAppleProduct(productId);
  return product;
}

/** The subscription as stored: what it is now and how far the time it gave reaches. */
export interface SubscriptionState {
  productId: string;
  connections: number;
  latestTransactionId: string;
  expiresAt: number;
  /** How far this subscription's time reaches (0: it gave none yet). */
  coveredUntil: number;
  autoRenew: boolean;
  pendingProductId: string | null;
  /** The signedDate of the notification that last set the renewal state, 0 when none did. */
  renewalSignedAt: number;
}

/** A transaction recorded before (app_store_transactions). */
export interface TransactionRecord {
  connections: number;
  expiresAt: number;
  grantedSeconds: number;
  refundedSeconds: number;
  revokedAt: number;
}

export interface StoreState {
  entitlement: Entitlement;
  autoRenew: boolean;
  subscribeType: SubscribeType;
  subscription: SubscriptionState;
  /** The record of the notification's transaction, when it was seen before. */
  transaction: TransactionRecord | undefined;
}

/** A write to app_store_transactions that the change needs. */
export type TransactionWrite =
  | {
      kind: 'insert';
      transaction: StoreTransaction;
      connections: number;
      grantedSeconds: number;
      revokedAt: number;
    }
  | {
      kind: 'update';
      transactionId: string;
      set: Partial<Pick<TransactionRecord, 'expiresAt' | 'grantedSeconds' | 'refundedSeconds' | 'revokedAt'>>;
    }
  /** An upgrade took `seconds` of another transaction's grant back (not below 0). */
  | { kind: 'reduce_granted'; transactionId: string; seconds: number };

export interface StoreChange {
  entitlement: Entitlement;
  autoRenew: boolean;
  /** Set when store time was added: the account is an App Store one. */
  subscribeType: SubscribeType | undefined;
  reason: AccessReason;
  subscription: SubscriptionState;
  writes: TransactionWrite[];
  /** Whether the account changed (its time, connections, type or renewal status). */
  accountChanged: boolean;
}

const isDowngrade = (notice: StoreNotice) =>
  (notice.type === 'DID_CHANGE_RENEWAL_PREF' || notice.type === 'OFFER_REDEEMED') &&
  notice.subtype === 'DOWNGRADE';

/** The products a notification needs, so that an unknown one is refused before anything is recorded. */
export function productsNeeded(notice: StoreNotice, t: StoreTransaction): string[] {
  const next = notice.renewal?.autoRenewProductId;
  return isDowngrade(notice) && next ? [t.productId, next] : [t.productId];
}

/** One notification's effect on one account and its subscription. */
export function applyStoreNotice(
  state: StoreState,
  notice: StoreNotice,
  t: StoreTransaction,
  products: StoreProducts,
  now: number,
): StoreChange {
  const change = new Transition(state, notice, products, now);
  change.apply(t);
  return change.result(state);
}

class Transition {
  private entitlement: Entitlement;
  private autoRenew: boolean;
  private subscribeType: SubscribeType | undefined;
  private reason: AccessReason = 'app_store';
  private readonly sub: SubscriptionState;
  private record: TransactionRecord | undefined;
  private readonly writes: TransactionWrite[] = [];
  /** False when a notification Apple signed later has already set the renewal state. */
  private readonly renewalCurrent: boolean;

  constructor(
    state: StoreState,
    private readonly notice: StoreNotice,
    private readonly products: StoreProducts,
    private readonly at: number,
  ) {
    this.entitlement = state.entitlement;
    this.autoRenew = state.autoRenew;
    this.sub = { ...state.subscription };
    this.record = state.transaction;
    this.renewalCurrent = !this.sub.renewalSignedAt || notice.signedDate >= this.sub.renewalSignedAt;
  }

  apply(t: StoreTransaction): void {
    const notice = this.notice;
    const renewal = notice.renewal;
    const renewing = renewal?.autoRenewStatus === undefined ? undefined : renewal.autoRenewStatus === 1;
    switch (notice.type) {
      case 'SUBSCRIBED':
        this.grant(t);
        this.setAutoRenew(renewing ?? true);
        break;
      case 'DID_RENEW':
        this.grant(t);
        if (this.sub.pendingProductId === t.productId) this.sub.pendingProductId = null;
        if (renewing !== undefined) this.setAutoRenew(renewing);
        break;
      case 'DID_CHANGE_RENEWAL_PREF':
      case 'OFFER_REDEEMED':
        if (notice.subtype === 'UPGRADE') this.upgrade(t);
        else if (notice.subtype === 'DOWNGRADE') this.scheduleDowngrade(renewal?.autoRenewProductId);
        else if (notice.type === 'DID_CHANGE_RENEWAL_PREF') this.cancelDowngrade();
        else this.grant(t);
        if (renewing !== undefined) this.setAutoRenew(renewing);
        break;
      case 'DID_CHANGE_RENEWAL_STATUS':
        if (notice.subtype === 'AUTO_RENEW_ENABLED') this.setAutoRenew(true);
        else if (notice.subtype === 'AUTO_RENEW_DISABLED') this.setAutoRenew(false);
        else if (renewing !== undefined) this.setAutoRenew(renewing);
        break;
      case 'DID_FAIL_TO_RENEW':
        if (renewing !== undefined) this.setAutoRenew(renewing);
        this.extendTo(renewal?.gracePeriodEndsAt ?? 0, this.sub.connections);
        break;
      case 'EXPIRED':
      case 'GRACE_PERIOD_EXPIRED':
        this.expire(t);
        break;
      case 'RENEWAL_EXTENDED':
        this.extendTransaction(t);
        break;
      case 'REFUND':
      case 'REVOKE':
        this.refund(t);
        break;
      case 'REFUND_REVERSED':
        this.reverseRefund(t);
        break;
      default:
        // PRICE_INCREASE, REFUND_DECLINED, CONSUMPTION_REQUEST, …: recorded, nothing to change.
        break;
    }
  }

  /**
   * Whether this notification may set the renewal state (auto-renew, a pending downgrade), noting
   * that it did. Apple retries a failed delivery later, so an older SUBSCRIBED may arrive after
   * AUTO_RENEW_DISABLED: the newest signedDate wins; the older one's transaction still counts.
   */
  private setsRenewalState(): boolean {
    if (!this.renewalCurrent) return false;
    this.sub.renewalSignedAt = this.notice.signedDate;
    return true;
  }

  private setAutoRenew(value: boolean): void {
    if (!this.setsRenewalState()) return;
    this.autoRenew = value;
    this.sub.autoRenew = value;
  }

  /** Adds `gain` seconds at `connections` by the purchase rules, marking the account an app-store one. */
  private add(gain: number, connections: number): void {
    if (gain <= 0) return;
    this.entitlement = addPaidTime(this.entitlement, { seconds: gain, connections }, this.at);
    this.subscribeType = SUBSCRIBE_TYPES.appStore;
  }

  private remove(removed: number): void {
    if (removed <= 0) return;
    this.entitlement = removeTime(this.entitlement, removed, this.at);
    this.sub.coveredUntil -= removed;
  }

  /** The subscription's time reaches `until` (a grace period's end): only what lies beyond is added. */
  private extendTo(until: number, connections: number): number {
    const gain = until - Math.max(this.at, this.sub.coveredUntil);
    if (gain <= 0) return 0;
    this.add(gain, connections);
    this.sub.coveredUntil = until;
    return gain;
  }

  /**
   * A transaction, once ever: the part of its period beyond what the subscription already gave is
   * added (a renewal adds one period; one that has already ended adds nothing). A transaction that
   * arrives already refunded is recorded and gives nothing.
   */
  private grant(t: StoreTransaction): void {
    if (this.record) return;
    const { connections } = productOf(this.products, t.productId);
    const revoked = t.revokedAt > 0;
    const gain = revoked ? 0 : Math.max(0, t.expiresAt - Math.max(this.at, this.sub.coveredUntil));
    this.writes.push({
      kind: 'insert',
      transaction: t,
      connections,
      grantedSeconds: gain,
      revokedAt: t.revokedAt,
    });
    this.record = {
      connections,
      expiresAt: t.expiresAt,
      grantedSeconds: gain,
      refundedSeconds: 0,
      revokedAt: t.revokedAt,
    };
    if (gain > 0) {
      this.add(gain, connections);
      this.sub.coveredUntil = t.expiresAt;
    }
    if (!revoked && t.expiresAt >= this.sub.expiresAt) {
      this.sub.productId = t.productId;
      this.sub.connections = connections;
      this.sub.latestTransactionId = t.id;
      this.sub.expiresAt = t.expiresAt;
    }
  }

  /**
   * An upgrade starts a new transaction at once; Apple refunds the unused part of the old one, so
   * that part leaves the account first, then the new period is added at the new size.
   */
  private upgrade(t: StoreTransaction): void {
    if (this.record) return;
    const unused = Math.max(0, this.sub.coveredUntil - this.at);
    if (unused > 0 && this.sub.latestTransactionId !== t.id) {
      this.remove(unused);
      this.writes.push({
        kind: 'reduce_granted',
        transactionId: this.sub.latestTransactionId,
        seconds: unused,
      });
    }
    this.grant(t);
    this.sub.pendingProductId = null;
  }

  /**
   * A downgrade applies at the next renewal, never before: the smaller product is remembered, and
   * the account shows the smaller size from the end of its current time. No time is given now.
   */
  private scheduleDowngrade(productId: string | undefined): void {
    if (!productId || !this.setsRenewalState() || productId === this.sub.productId) return;
    this.sub.pendingProductId = productId;
    const { connections } = productOf(this.products, productId);
    const current = this.entitlement;
    if (
      connections < current.connections &&
      current.expireAt > this.at &&
      current.pendingConnections === null
    ) {
      this.entitlement = { ...current, pendingConnections: connections, pendingFrom: current.expireAt };
    }
  }

  /** Back to the current product: a downgrade this subscription scheduled (and nothing was paid for yet) goes. */
  private cancelDowngrade(): void {
    // A choice in its own right: an older DOWNGRADE delivered after it must not schedule one.
    if (!this.setsRenewalState()) return;
    const pending = this.sub.pendingProductId;
    if (!pending) return;
    this.sub.pendingProductId = null;
    const connections = Object.hasOwn(this.products, pending)
      ? this.products[pending]?.connections
      : undefined;
    const current = this.entitlement;
    if (current.pendingConnections === connections && current.pendingFrom === current.expireAt) {
      this.entitlement = { ...current, pendingConnections: null, pendingFrom: 0 };
    }
  }

  /**
   * The subscription ended: it renews no more, and access ends where the latest transaction ends
   * (a grace period's remainder, if any, is taken back). Late news of an older transaction changes
   * nothing.
   */
  private expire(t: StoreTransaction): void {
    const latest = this.sub.expiresAt;
    if (t.expiresAt < latest) return;
    this.setAutoRenew(false);
    this.remove(this.sub.coveredUntil - Math.max(this.at, t.expiresAt, latest));
  }

  /** Apple moved a transaction's expiry later (a service credit): the difference is added. */
  private extendTransaction(t: StoreTransaction): void {
    const row = this.record;
    if (!row) {
      this.grant(t);
      return;
    }
    if (t.expiresAt <= row.expiresAt) return;
    const gain = this.extendTo(t.expiresAt, row.connections);
    this.writes.push({
      kind: 'update',
      transactionId: t.id,
      set: { expiresAt: t.expiresAt, grantedSeconds: row.grantedSeconds + gain },
    });
    if (t.expiresAt > this.sub.expiresAt) this.sub.expiresAt = t.expiresAt;
  }

  /**
   * A refunded or revoked transaction: the time it gave is taken back (all of it, or the refunded
   * share), not below now. Known first through its refund, it is recorded as refunded so that its
   * late purchase notification gives nothing.
   */
  private refund(t: StoreTransaction): void {
    const row = this.record;
    if (!row) {
      this.grant({ ...t, revokedAt: t.revokedAt || this.at });
      return;
    }
    if (row.revokedAt) return;
    const share = t.refundedShare;
    const removed =
      share !== undefined && share > 0 && share < 100_000
        ? Math.round((row.grantedSeconds * share) / 100_000)
        : row.grantedSeconds;
    this.remove(removed);
    this.reason = 'app_store_refund';
    this.writes.push({
      kind: 'update',
      transactionId: t.id,
      set: { revokedAt: t.revokedAt || this.at, refundedSeconds: removed },
    });
  }

  /** Apple reversed a refund: the time the refund took is given back, from now. */
  private reverseRefund(t: StoreTransaction): void {
    const row = this.record;
    if (!row) {
      this.grant({ ...t, revokedAt: 0 });
      return;
    }
    if (!row.revokedAt) return;
    this.add(row.refundedSeconds, row.connections);
    if (row.refundedSeconds > 0) {
      this.sub.coveredUntil = Math.max(this.sub.coveredUntil, this.at) + row.refundedSeconds;
    }
    this.writes.push({ kind: 'update', transactionId: t.id, set: { revokedAt: 0, refundedSeconds: 0 } });
  }

  result(before: StoreState): StoreChange {
    const timeChanged =
      !sameEntitlement(this.entitlement, before.entitlement) ||
      (this.subscribeType !== undefined && this.subscribeType !== before.subscribeType);
    return {
      entitlement: this.entitlement,
      autoRenew: this.autoRenew,
      subscribeType: this.subscribeType,
      reason: this.reason,
      subscription: this.sub,
      writes: this.writes,
      accountChanged: timeChanged || this.autoRenew !== before.autoRenew,
    };
  }
}
