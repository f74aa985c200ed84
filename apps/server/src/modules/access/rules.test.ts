import { describe, expect, it } from 'vitest';
import type { Entitlement } from '@skyway/shared/plans';
import { SUBSCRIBE_TYPES } from '@skyway/shared/user';
import { addPaidTime, addTime, entitlementOf, removeTime, subscribeTypeAfterPurchase } from './rules.ts';

const DAY = 86_400;
const NOW = 1_800_000_000;
const plain = (expireAt: number, connections: number): Entitlement => ({
  expireAt,
  connections,
  pendingConnections: null,
  pendingFrom: 0,
});

describe('reading stored access', () => {
  it('reads dates as unix seconds and applies a downgrade whose time has come', () => {
    const at = (seconds: number) => new Date(seconds * 1000);
    expect(
      entitlementOf(
        { expireAt: at(NOW + 10 * DAY), connections: 5, pendingConnections: 2, pendingFrom: at(NOW + DAY) },
        at(NOW),
      ),
    ).toEqual({ expireAt: NOW + 10 * DAY, connections: 5, pendingConnections: 2, pendingFrom: NOW + DAY });
    expect(
      entitlementOf(
        { expireAt: at(NOW + 10 * DAY), connections: 5, pendingConnections: 2, pendingFrom: at(NOW - 1) },
        at(NOW),
      ),
    ).toEqual(plain(NOW + 10 * DAY, 2));
    expect(
      entitlementOf({ expireAt: null, connections: 1, pendingConnections: null, pendingFrom: null }, at(NOW)),
    ).toEqual(plain(0, 1));
  });
});

describe('adding time at the current size', () => {
  it('counts from the expiry while access lasts, else from now', () => {
    expect(addTime(plain(NOW + DAY, 3), 60, NOW)).toEqual(plain(NOW + DAY + 60, 3));
    expect(addTime(plain(NOW - DAY, 3), 60, NOW)).toEqual(plain(NOW + 60, 3));
    expect(addTime(plain(0, 1), 30 * 60, NOW)).toEqual(plain(NOW + 30 * 60, 1));
  });
});

describe('bought time', () => {
  it('starts, extends, upgrades and schedules a downgrade by the purchase rules', () => {
    const month = { seconds: 30 * DAY, connections: 2 };
    expect(addPaidTime(plain(0, 1), month, NOW)).toEqual(plain(NOW + 30 * DAY, 2));
    expect(addPaidTime(plain(NOW + 10 * DAY, 2), month, NOW)).toEqual(plain(NOW + 40 * DAY, 2));
    // 10 days at 1 connection are worth 5 days at 2.
    expect(addPaidTime(plain(NOW + 10 * DAY, 1), month, NOW)).toEqual(plain(NOW + 35 * DAY, 2));
    expect(addPaidTime(plain(NOW + 10 * DAY, 5), month, NOW)).toEqual({
      expireAt: NOW + 40 * DAY,
      connections: 5,
      pendingConnections: 2,
      pendingFrom: NOW + 10 * DAY,
    });
  });

  it('makes a card subscriber, but an App Store subscriber stays one', () => {
    expect(subscribeTypeAfterPurchase(SUBSCRIBE_TYPES.none)).toBe(SUBSCRIBE_TYPES.card);
    expect(subscribeTypeAfterPurchase(SUBSCRIBE_TYPES.card)).toBe(SUBSCRIBE_TYPES.card);
    expect(subscribeTypeAfterPurchase(SUBSCRIBE_TYPES.appStore)).toBe(SUBSCRIBE_TYPES.appStore);
  });
});

describe('taking app-store time back', () => {
  it('moves the end earlier, not below now, and a scheduled downgrade with it', () => {
    expect(removeTime(plain(NOW + 10 * DAY, 3), 4 * DAY, NOW)).toEqual(plain(NOW + 6 * DAY, 3));
    expect(removeTime(plain(NOW + 10 * DAY, 3), 40 * DAY, NOW)).toEqual(plain(NOW, 3));
    expect(removeTime(plain(NOW - 10, 3), DAY, NOW)).toEqual(plain(NOW - 10, 3));
    const pending = {
      expireAt: NOW + 20 * DAY,
      connections: 5,
      pendingConnections: 1,
      pendingFrom: NOW + 10 * DAY,
    };
    expect(removeTime(pending, 4 * DAY, NOW)).toEqual({
      ...pending,
      expireAt: NOW + 16 * DAY,
      pendingFrom: NOW + 6 * DAY,
    });
    expect(removeTime(pending, 12 * DAY, NOW)).toEqual(plain(NOW + 8 * DAY, 1));
  });
});
