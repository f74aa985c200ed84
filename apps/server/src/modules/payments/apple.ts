import type { SignedDataVerifier } from '@apple/app-store-server-library';
import { eq, sql } from 'drizzle-orm';
import { fromUnixSeconds, toUnixSeconds } from '@skyway/shared/dates';
import { applyTime, type Entitlement, settleEntitlement } from '@skyway/shared/plans';
import { SUBSCRIBE_TYPES, type SubscribeType } from '@skyway/shared/user';
import type { AppleProduct } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import {
  type AppStoreSubscriptionRow,
  appStoreSubscriptions,
  appStoreTransactions,
  type UserRow,
  users,
} from '../../db/schema/index.ts';
import { entitlementOf, type ExpiryReason, lockUser, writeEntitlement } from '../ledger/expiry.ts';
import { type AppleNotice, verifyAppleNotification } from './apple-verify.ts';
import { recordPaymentEvent } from './fulfil.ts';

export const APPLE_PROVIDER = 'apple';

/**
 * - `applied`: the account changed (time, connections, a scheduled downgrade or the renewal status);
 * - `unchanged`: verified and recorded, nothing to change (a transaction seen before, a TEST, …);
 * - `duplicate`: this notificationUUID was handled before; nothing changed;
 * - `no_account`: no account matches the subscription or its appAccountToken (recorded, logged).
 */
export type AppleOutcome = 'applied' | 'unchanged' | 'duplicate' | 'no_account';

/** A product id missing from APPLE_PRODUCTS: nothing is recorded, so Apple's retry (or the history command) can apply it once the operator has added it. */
export class UnknownAppleProduct extends Error {
  constructor(readonly productId: string) {
    super(`App Store product "${productId}" is not in APPLE_PRODUCTS`);
    this.name = 'UnknownAppleProduct';
  }
}

export interface AppleHandler {
  db: Database;
  verifier: SignedDataVerifier;
  products: Record<string, AppleProduct>;
}

export interface AppleResult {
  outcome: AppleOutcome;
  notificationUUID: string;
  type: string;
  subtype: string | undefined;
  userId?: string;
  transactionId?: string;
}

/** Verifies a `signedPayload` and applies it: the one path of the notify route and the history command. */
export async function processAppleNotification(
  handler: AppleHandler,
  signedPayload: string,
  now: Date,
): Promise<AppleResult> {
  const notice = await verifyAppleNotification(handler.verifier, signedPayload);
  return applyAppleNotice(handler.db, handler.products, notice, now);
}

/** A transaction as the arithmetic uses it: times in unix seconds, 0 = none. */
interface StoreTransaction {
  id: string;
  originalId: string;
  productId: string;
  purchasedAt: number;
  expiresAt: number;
  revokedAt: number;
  /** Milli-percent of the transaction refunded when Apple refunded part of it (REFUND_PRORATED). */
  refundedShare: number | undefined;
}

const seconds = (milliseconds: number | undefined) => (milliseconds ? Math.floor(milliseconds / 1000) : 0);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function storeTransaction(notice: AppleNotice): StoreTransaction | undefined {
  const t = notice.transaction;
  if (!t?.transactionId || !t.originalTransactionId || !t.productId) return undefined;
  return {
    id: t.transactionId,
    originalId: t.originalTransactionId,
    productId: t.productId,
    purchasedAt: seconds(t.purchaseDate),
    expiresAt: seconds(t.expiresDate),
    revokedAt: seconds(t.revocationDate),
    refundedShare: t.revocationType === 'REFUND_PRORATED' ? t.revocationPercentage : undefined,
  };
}

function productOf(products: Record<string, AppleProduct>, productId: string): AppleProduct {
  const product = Object.hasOwn(products, productId) ? products[productId] : undefined;
  if (!product) throw new UnknownAppleProduct(productId);
  return product;
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

/** The account a notification is about: the subscription's, else the one its appAccountToken names. */
async function findOwner(
  db: Database,
  notice: AppleNotice,
  t: StoreTransaction,
): Promise<string | undefined> {
  const [subscription] = await db
    .select({ userId: appStoreSubscriptions.userId })
    .from(appStoreSubscriptions)
    .where(eq(appStoreSubscriptions.originalTransactionId, t.originalId));
  if (subscription) return subscription.userId;
  for (const token of [notice.transaction?.appAccountToken, notice.renewal?.appAccountToken]) {
    if (!token || !UUID.test(token)) continue;
    const [user] = await db.select({ id: users.id }).from(users).where(eq(users.id, token.toLowerCase()));
    if (user) return user.id;
  }
  return undefined;
}

const sameEntitlement = (a: Entitlement, b: Entitlement) =>
  a.expireAt === b.expireAt &&
  a.connections === b.connections &&
  a.pendingConnections === b.pendingConnections &&
  a.pendingFrom === b.pendingFrom;

const isDowngrade = (notice: AppleNotice) =>
  (notice.type === 'DID_CHANGE_RENEWAL_PREF' || notice.type === 'OFFER_REDEEMED') &&
  notice.subtype === 'DOWNGRADE';

/**
 * Applies one verified notification, once: in one transaction it records the notificationUUID
 * (payment_events, provider `apple`: a repeated or concurrent delivery stops there), locks the
 * account and the subscription, records each transaction id once (app_store_transactions), changes
 * the account's time, connections and renewal status, and writes a ledger row for any change of time
 * or connections. docs/architecture.md ("App-store subscriptions") gives the rules.
 */
export async function applyAppleNotice(
  db: Database,
  products: Record<string, AppleProduct>,
  notice: AppleNotice,
  now: Date,
): Promise<AppleResult> {
  const result = (outcome: AppleOutcome, extra: Partial<AppleResult> = {}): AppleResult => ({
    outcome,
    notificationUUID: notice.notificationUUID,
    type: notice.type,
    subtype: notice.subtype,
    ...extra,
  });
  const event = {
    id: notice.notificationUUID,
    type: notice.subtype ? `${notice.type}/${notice.subtype}` : notice.type,
  };
  const t = notice.type === 'TEST' ? undefined : storeTransaction(notice);
  const ownerId = t ? await findOwner(db, notice, t) : undefined;
  // Every product this notification needs must be known before anything is recorded.
  if (t && ownerId) {
    productOf(products, t.productId);
    const next = notice.renewal?.autoRenewProductId;
    if (isDowngrade(notice) && next) productOf(products, next);
  }

  return db.transaction(async (tx) => {
    if (!(await recordPaymentEvent(tx, APPLE_PROVIDER, event, null, now))) return result('duplicate');
    if (!t) return result('unchanged');
    if (!ownerId) return result('no_account', { transactionId: t.id });
    const user = await lockUser(tx, ownerId);
    const subscription = await lockSubscription(tx, user, t, productOf(products, t.productId), notice, now);
    const change = new AccountChange(tx, products, user, subscription, notice, now);
    await change.apply(t);
    const changed = await change.save(t);
    return result(changed ? 'applied' : 'unchanged', { userId: user.id, transactionId: t.id });
  });
}

async function lockSubscription(
  db: Database,
  user: UserRow,
  t: StoreTransaction,
  product: AppleProduct,
  notice: AppleNotice,
  now: Date,
): Promise<AppStoreSubscriptionRow> {
  await db
    .insert(appStoreSubscriptions)
    .values({
      originalTransactionId: t.originalId,
      userId: user.id,
      productId: t.productId,
      connections: product.connections,
      latestTransactionId: t.id,
      autoRenew: notice.renewal?.autoRenewStatus !== 0,
      environment: notice.environment ?? 'unknown',
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing();
  const [row] = await db
    .select()
    .from(appStoreSubscriptions)
    .where(eq(appStoreSubscriptions.originalTransactionId, t.originalId))
    .for('update');
  if (!row) throw new Error(`no app-store subscription ${t.originalId}`);
  return row;
}

/** One notification's effect on one account and its subscription, worked out and then saved. */
class AccountChange {
  private readonly before: Entitlement;
  private entitlement: Entitlement;
  private autoRenew: boolean;
  private subscribeType: SubscribeType | undefined;
  private reason: ExpiryReason = 'app_store';
  private readonly sub: AppStoreSubscriptionRow;
  /** How far this subscription's time reaches, in unix seconds (0: it gave none yet). */
  private covered: number;
  private readonly at: number;
  /** False when a notification Apple signed later has already set the renewal state. */
  private readonly renewalCurrent: boolean;

  constructor(
    private readonly db: Database,
    private readonly products: Record<string, AppleProduct>,
    private readonly user: UserRow,
    subscription: AppStoreSubscriptionRow,
    private readonly notice: AppleNotice,
    private readonly now: Date,
  ) {
    this.at = toUnixSeconds(now);
    this.before = entitlementOf(user, now);
    this.entitlement = this.before;
    this.autoRenew = user.autoRenew;
    this.sub = { ...subscription };
    this.covered = toUnixSeconds(subscription.coveredUntil);
    this.renewalCurrent =
      !subscription.renewalSignedAt || notice.signedDate >= subscription.renewalSignedAt.getTime();
  }

  async apply(t: StoreTransaction): Promise<void> {
    const notice = this.notice;
    const renewal = notice.renewal;
    const renewing = renewal?.autoRenewStatus === undefined ? undefined : renewal.autoRenewStatus === 1;
    switch (notice.type) {
      case 'SUBSCRIBED':
        await this.grant(t);
        this.setAutoRenew(renewing ?? true);
        break;
      case 'DID_RENEW':
        await this.grant(t);
        if (this.sub.pendingProductId === t.productId) this.sub.pendingProductId = null;
        if (renewing !== undefined) this.setAutoRenew(renewing);
        break;
      case 'DID_CHANGE_RENEWAL_PREF':
      case 'OFFER_REDEEMED':
        if (notice.subtype === 'UPGRADE') await this.upgrade(t);
        else if (notice.subtype === 'DOWNGRADE') this.scheduleDowngrade(renewal?.autoRenewProductId);
        else if (notice.type === 'DID_CHANGE_RENEWAL_PREF') this.cancelDowngrade();
        else await this.grant(t);
        if (renewing !== undefined) this.setAutoRenew(renewing);
        break;
      case 'DID_CHANGE_RENEWAL_STATUS':
        if (notice.subtype === 'AUTO_RENEW_ENABLED') this.setAutoRenew(true);
        else if (notice.subtype === 'AUTO_RENEW_DISABLED') this.setAutoRenew(false);
        else if (renewing !== undefined) this.setAutoRenew(renewing);
        break;
      case 'DID_FAIL_TO_RENEW':
        if (renewing !== undefined) this.setAutoRenew(renewing);
        this.extendTo(seconds(renewal?.gracePeriodExpiresDate), this.sub.connections);
        break;
      case 'EXPIRED':
      case 'GRACE_PERIOD_EXPIRED':
        this.expire(t);
        break;
      case 'RENEWAL_EXTENDED':
        await this.extendTransaction(t);
        break;
      case 'REFUND':
      case 'REVOKE':
        await this.refund(t);
        break;
      case 'REFUND_REVERSED':
        await this.reverseRefund(t);
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
    this.sub.renewalSignedAt = new Date(this.notice.signedDate);
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
    this.entitlement = applyTime(this.entitlement, { seconds: gain, connections }, this.at).after;
    this.subscribeType = SUBSCRIBE_TYPES.appStore;
  }

  private remove(removed: number): void {
    if (removed <= 0) return;
    this.entitlement = removeTime(this.entitlement, removed, this.at);
    this.covered -= removed;
  }

  /** The subscription's time reaches `until` (a grace period's end): only what lies beyond is added. */
  private extendTo(until: number, connections: number): number {
    const gain = until - Math.max(this.at, this.covered);
    if (gain <= 0) return 0;
    this.add(gain, connections);
    this.covered = until;
    return gain;
  }

  private async findTransaction(id: string) {
    const [row] = await this.db
      .select()
      .from(appStoreTransactions)
      .where(eq(appStoreTransactions.transactionId, id))
      .for('update');
    return row;
  }

  /**
   * A transaction, once ever: the part of its period beyond what the subscription already gave is
   * added (a renewal adds one period; one that has already ended adds nothing). A transaction that
   * arrives already refunded is recorded and gives nothing.
   */
  private async grant(t: StoreTransaction): Promise<boolean> {
    const product = productOf(this.products, t.productId);
    const revoked = t.revokedAt > 0;
    const gain = revoked ? 0 : Math.max(0, t.expiresAt - Math.max(this.at, this.covered));
    const inserted = await this.db
      .insert(appStoreTransactions)
      .values({
        transactionId: t.id,
        originalTransactionId: t.originalId,
        userId: this.user.id,
        productId: t.productId,
        connections: product.connections,
        purchasedAt: fromUnixSeconds(t.purchasedAt),
        expiresAt: fromUnixSeconds(t.expiresAt),
        notificationId: this.notice.notificationUUID,
        grantedSeconds: gain,
        revokedAt: revoked ? fromUnixSeconds(t.revokedAt) : null,
        createdAt: this.now,
      })
      .onConflictDoNothing()
      .returning({ id: appStoreTransactions.transactionId });
    if (inserted.length === 0) return false;
    if (gain > 0) {
      this.add(gain, product.connections);
      this.covered = t.expiresAt;
    }
    if (!revoked && t.expiresAt >= toUnixSeconds(this.sub.expiresAt)) {
      this.sub.productId = t.productId;
      this.sub.connections = product.connections;
      this.sub.latestTransactionId = t.id;
      this.sub.expiresAt = fromUnixSeconds(t.expiresAt);
    }
    return true;
  }

  /**
   * An upgrade starts a new transaction at once; Apple refunds the unused part of the old one, so
   * that part leaves the account first, then the new period is added at the new size.
   */
  private async upgrade(t: StoreTransaction): Promise<void> {
    if (await this.findTransaction(t.id)) return;
    const unused = Math.max(0, this.covered - this.at);
    if (unused > 0 && this.sub.latestTransactionId !== t.id) {
      this.remove(unused);
      await this.db
        .update(appStoreTransactions)
        .set({ grantedSeconds: sql`greatest(0, ${appStoreTransactions.grantedSeconds} - ${unused})` })
        .where(eq(appStoreTransactions.transactionId, this.sub.latestTransactionId));
    }
    await this.grant(t);
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
    const latest = toUnixSeconds(this.sub.expiresAt);
    if (t.expiresAt < latest) return;
    this.setAutoRenew(false);
    this.remove(this.covered - Math.max(this.at, t.expiresAt, latest));
  }

  /** Apple moved a transaction's expiry later (a service credit): the difference is added. */
  private async extendTransaction(t: StoreTransaction): Promise<void> {
    const row = await this.findTransaction(t.id);
    if (!row) {
      await this.grant(t);
      return;
    }
    if (t.expiresAt <= toUnixSeconds(row.expiresAt)) return;
    const gain = this.extendTo(t.expiresAt, row.connections);
    await this.db
      .update(appStoreTransactions)
      .set({ expiresAt: fromUnixSeconds(t.expiresAt), grantedSeconds: row.grantedSeconds + gain })
      .where(eq(appStoreTransactions.transactionId, t.id));
    if (t.expiresAt > toUnixSeconds(this.sub.expiresAt)) this.sub.expiresAt = fromUnixSeconds(t.expiresAt);
  }

  /**
   * A refunded or revoked transaction: the time it gave is taken back (all of it, or the refunded
   * share), not below now. Known first through its refund, it is recorded as refunded so that its
   * late purchase notification gives nothing.
   */
  private async refund(t: StoreTransaction): Promise<void> {
    const row = await this.findTransaction(t.id);
    if (!row) {
      await this.grant({ ...t, revokedAt: t.revokedAt || this.at });
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
    await this.db
      .update(appStoreTransactions)
      .set({ revokedAt: fromUnixSeconds(t.revokedAt) ?? this.now, refundedSeconds: removed })
      .where(eq(appStoreTransactions.transactionId, t.id));
  }

  /** Apple reversed a refund: the time the refund took is given back, from now. */
  private async reverseRefund(t: StoreTransaction): Promise<void> {
    const row = await this.findTransaction(t.id);
    if (!row) {
      await this.grant({ ...t, revokedAt: 0 });
      return;
    }
    if (!row.revokedAt) return;
    this.add(row.refundedSeconds, row.connections);
    if (row.refundedSeconds > 0) this.covered = Math.max(this.covered, this.at) + row.refundedSeconds;
    await this.db
      .update(appStoreTransactions)
      .set({ revokedAt: null, refundedSeconds: 0 })
      .where(eq(appStoreTransactions.transactionId, t.id));
  }

  /** Writes what changed; true when the account changed. */
  async save(t: StoreTransaction): Promise<boolean> {
    const timeChanged =
      !sameEntitlement(this.entitlement, this.before) ||
      (this.subscribeType !== undefined && this.subscribeType !== this.user.subscribeType);
    const renewalChanged = this.autoRenew !== this.user.autoRenew;
    if (timeChanged) {
      await writeEntitlement(this.db, this.user, {
        reason: this.reason,
        ref: t.id,
        after: this.entitlement,
        now: this.now,
        subscribeType: this.subscribeType,
        autoRenew: this.autoRenew,
      });
    } else if (renewalChanged) {
      // No time moved: no ledger row, the notification itself is in payment_events.
      await this.db.update(users).set({ autoRenew: this.autoRenew }).where(eq(users.id, this.user.id));
    }
    await this.db
      .update(appStoreSubscriptions)
      .set({
        productId: this.sub.productId,
        connections: this.sub.connections,
        latestTransactionId: this.sub.latestTransactionId,
        expiresAt: this.sub.expiresAt,
        coveredUntil: fromUnixSeconds(this.covered),
        autoRenew: this.sub.autoRenew,
        pendingProductId: this.sub.pendingProductId,
        renewalSignedAt: this.sub.renewalSignedAt,
        updatedAt: this.now,
      })
      .where(eq(appStoreSubscriptions.originalTransactionId, this.sub.originalTransactionId));
    return timeChanged || renewalChanged;
  }
}
