import { describe, expect, it } from 'vitest';
import type { Entitlement } from '@skyway/shared/plans';
import { SUBSCRIBE_TYPES } from '@skyway/shared/user';
import {
  applyStoreNotice,
  productsNeeded,
  type StoreNotice,
  type StoreState,
  type StoreTransaction,
  type SubscriptionState,
  type TransactionRecord,
  UnknownAppleProduct,
} from './app-store-rules.ts';

const DAY = 86_400;
const NOW = 1_800_000_000;
const SIGNED = NOW * 1000;
const products = { 'vpn.month.1': { connections: 1 }, 'vpn.month.3': { connections: 3 } };
const plain = (expireAt: number, connections: number): Entitlement => ({
  expireAt,
  connections,
  pendingConnections: null,
  pendingFrom: 0,
});

const transaction = (
  id: string,
  productId: string,
  purchasedAt: number,
  expiresAt: number,
): StoreTransaction => ({
  id,
  originalId: 'orig-1',
  productId,
  purchasedAt,
  expiresAt,
  revokedAt: 0,
  refundedShare: undefined,
});

const firstSight = (t: StoreTransaction): SubscriptionState => ({
  productId: t.productId,
  connections: products[t.productId as keyof typeof products].connections,
  latestTransactionId: t.id,
  expiresAt: 0,
  coveredUntil: 0,
  autoRenew: true,
  pendingProductId: null,
  renewalSignedAt: 0,
});

const newAccount = (subscription: SubscriptionState): StoreState => ({
  entitlement: plain(0, 1),
  autoRenew: false,
  subscribeType: SUBSCRIBE_TYPES.none,
  subscription,
  transaction: undefined,
});

/** An App Store subscriber with `access`, its subscription as given, and the record of `t` if `record`. */
const subscriber = (
  t: StoreTransaction,
  access: Entitlement,
  subscription: Partial<SubscriptionState>,
  record?: Partial<TransactionRecord>,
): StoreState => ({
  entitlement: access,
  autoRenew: true,
  subscribeType: SUBSCRIBE_TYPES.appStore,
  subscription: { ...firstSight(t), ...subscription },
  transaction: record && {
    connections: products[t.productId as keyof typeof products].connections,
    expiresAt: t.expiresAt,
    grantedSeconds: 0,
    refundedSeconds: 0,
    revokedAt: 0,
    ...record,
  },
});

const notice = (type: string, subtype?: string, extra: Partial<StoreNotice> = {}): StoreNotice => ({
  type,
  subtype,
  signedDate: SIGNED,
  ...extra,
});

describe('App Store transitions', () => {
  const first = transaction('t1', 'vpn.month.3', NOW, NOW + 30 * DAY);

  it('SUBSCRIBED gives the period at the product’s size, once, and turns auto-renew on', () => {
    const change = applyStoreNotice(
      newAccount(firstSight(first)),
      notice('SUBSCRIBED', 'INITIAL_BUY'),
      first,
      products,
      NOW,
    );
    expect(change).toMatchObject({
      entitlement: plain(NOW + 30 * DAY, 3),
      autoRenew: true,
      subscribeType: SUBSCRIBE_TYPES.appStore,
      reason: 'app_store',
      accountChanged: true,
      subscription: { coveredUntil: NOW + 30 * DAY, expiresAt: NOW + 30 * DAY, latestTransactionId: 't1' },
      writes: [{ kind: 'insert', grantedSeconds: 30 * DAY, connections: 3, revokedAt: 0 }],
    });
    // The same transaction again: recorded before, nothing more.
    const again = applyStoreNotice(
      subscriber(first, change.entitlement, change.subscription, { grantedSeconds: 30 * DAY }),
      notice('SUBSCRIBED', 'RESUBSCRIBE'),
      first,
      products,
      NOW + DAY,
    );
    expect(again).toMatchObject({ accountChanged: false, writes: [], entitlement: plain(NOW + 30 * DAY, 3) });
  });

  it('a renewal adds only what lies beyond the time already given', () => {
    const subscribed = applyStoreNotice(
      newAccount(firstSight(first)),
      notice('SUBSCRIBED'),
      first,
      products,
      NOW,
    );
    const renewal = transaction('t2', 'vpn.month.3', NOW + 30 * DAY - 60, NOW + 61 * DAY);
    const renewed = applyStoreNotice(
      {
        ...newAccount(subscribed.subscription),
        entitlement: subscribed.entitlement,
        autoRenew: true,
        subscribeType: 3,
      },
      notice('DID_RENEW'),
      renewal,
      products,
      NOW + 29 * DAY,
    );
    expect(renewed.entitlement).toEqual(plain(NOW + 61 * DAY, 3));
    expect(renewed.writes).toMatchObject([{ kind: 'insert', grantedSeconds: 31 * DAY }]);
  });

  it('a notification signed before the last renewal change does not undo it; its transaction still counts', () => {
    const subscription = { ...firstSight(first), autoRenew: false, renewalSignedAt: SIGNED + 1000 };
    const change = applyStoreNotice(
      { ...newAccount(subscription), autoRenew: false },
      notice('SUBSCRIBED'),
      first,
      products,
      NOW,
    );
    expect(change.autoRenew).toBe(false);
    expect(change.entitlement).toEqual(plain(NOW + 30 * DAY, 3));
  });

  it('a downgrade waits for the end of the current time and gives nothing now', () => {
    const state = subscriber(
      first,
      plain(NOW + 20 * DAY, 3),
      { expiresAt: NOW + 20 * DAY, coveredUntil: NOW + 20 * DAY },
      { expiresAt: NOW + 20 * DAY, grantedSeconds: 20 * DAY },
    );
    const downgrade = notice('DID_CHANGE_RENEWAL_PREF', 'DOWNGRADE', {
      renewal: { autoRenewStatus: 1, autoRenewProductId: 'vpn.month.1' },
    });
    expect(productsNeeded(downgrade, first)).toEqual(['vpn.month.3', 'vpn.month.1']);
    const change = applyStoreNotice(state, downgrade, first, products, NOW);
    expect(change.entitlement).toEqual({
      expireAt: NOW + 20 * DAY,
      connections: 3,
      pendingConnections: 1,
      pendingFrom: NOW + 20 * DAY,
    });
    expect(change.subscription.pendingProductId).toBe('vpn.month.1');
    expect(change.writes).toEqual([]);
  });

  it('an upgrade takes the unused time of the old transaction back, then gives the new period', () => {
    const state = subscriber(
      transaction('t1', 'vpn.month.1', NOW - 10 * DAY, NOW + 20 * DAY),
      plain(NOW + 20 * DAY, 1),
      { expiresAt: NOW + 20 * DAY, coveredUntil: NOW + 20 * DAY },
    );
    const upgraded = transaction('t2', 'vpn.month.3', NOW, NOW + 30 * DAY);
    const change = applyStoreNotice(
      state,
      notice('DID_CHANGE_RENEWAL_PREF', 'UPGRADE'),
      upgraded,
      products,
      NOW,
    );
    expect(change.entitlement).toEqual(plain(NOW + 30 * DAY, 3));
    expect(change.writes).toMatchObject([
      { kind: 'reduce_granted', transactionId: 't1', seconds: 20 * DAY },
      { kind: 'insert', grantedSeconds: 30 * DAY, connections: 3 },
    ]);
    expect(change.subscription).toMatchObject({
      productId: 'vpn.month.3',
      connections: 3,
      latestTransactionId: 't2',
    });
  });

  it('a refund takes back what the transaction gave, a prorated one its share, not below now', () => {
    const state = subscriber(
      first,
      plain(NOW + 20 * DAY, 3),
      { expiresAt: NOW + 20 * DAY, coveredUntil: NOW + 20 * DAY },
      { expiresAt: NOW + 20 * DAY, grantedSeconds: 30 * DAY },
    );
    const refunded = { ...first, revokedAt: NOW };
    const whole = applyStoreNotice(state, notice('REFUND'), refunded, products, NOW);
    expect(whole).toMatchObject({ entitlement: plain(NOW, 3), reason: 'app_store_refund' });
    expect(whole.writes).toEqual([
      { kind: 'update', transactionId: 't1', set: { revokedAt: NOW, refundedSeconds: 30 * DAY } },
    ]);
    const half = applyStoreNotice(
      state,
      notice('REFUND'),
      { ...refunded, refundedShare: 50_000 },
      products,
      NOW,
    );
    expect(half.entitlement).toEqual(plain(NOW + 5 * DAY, 3));
  });

  it('EXPIRED turns auto-renew off and takes a grace period’s remainder back', () => {
    const state = subscriber(
      first,
      plain(NOW + 10 * DAY, 3),
      { expiresAt: NOW - DAY, coveredUntil: NOW + 10 * DAY },
      { expiresAt: NOW - DAY, grantedSeconds: 30 * DAY },
    );
    const ended = transaction('t1', 'vpn.month.3', NOW - 31 * DAY, NOW - DAY);
    const change = applyStoreNotice(state, notice('GRACE_PERIOD_EXPIRED'), ended, products, NOW);
    expect(change).toMatchObject({ autoRenew: false, entitlement: plain(NOW, 3), accountChanged: true });
  });

  it('refuses a product missing from APPLE_PRODUCTS', () => {
    const unknown = transaction('t9', 'vpn.year.9', NOW, NOW + DAY);
    expect(() =>
      applyStoreNotice(newAccount(firstSight(first)), notice('SUBSCRIBED'), unknown, products, NOW),
    ).toThrow(UnknownAppleProduct);
  });
});
