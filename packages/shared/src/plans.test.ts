import { describe, expect, it } from 'vitest';
import { applyPurchase, applyTime, type Entitlement, PERIODS, settleEntitlement } from './plans.ts';
import { formatYuan, orderAmount } from './money.ts';

const DAY = 86_400;
const NOW = 1_800_000_000;
const none: Entitlement = { expireAt: 0, connections: 1, pendingConnections: null, pendingFrom: 0 };
const active = (days: number, connections: number): Entitlement => ({
  expireAt: NOW + days * DAY,
  connections,
  pendingConnections: null,
  pendingFrom: 0,
});

describe('plans', () => {
  it('are 31, 183 and 366 days long', () => {
    expect(PERIODS).toEqual({
      month: { months: 1, days: 31 },
      half_year: { months: 6, days: 183 },
      year: { months: 12, days: 366 },
    });
  });

  it('cost the unit price times the connections, shown in yuan', () => {
    expect(orderAmount(2500, 3)).toBe(7500);
    expect(formatYuan(7500)).toBe('¥75.00');
    expect(formatYuan(13_805)).toBe('¥138.05');
  });
});

describe('a purchase', () => {
  it('without access starts now at the bought size', () => {
    const expired = { ...active(-3, 5) };
    expect(applyPurchase(none, { days: 31, connections: 2 }, NOW)).toEqual({
      effect: 'start',
      after: { expireAt: NOW + 31 * DAY, connections: 2, pendingConnections: null, pendingFrom: 0 },
    });
    expect(applyPurchase(expired, { days: 183, connections: 1 }, NOW).after).toEqual({
      expireAt: NOW + 183 * DAY,
      connections: 1,
      pendingConnections: null,
      pendingFrom: 0,
    });
  });

  it('of the same size adds the period to the expiry', () => {
    expect(applyPurchase(active(10, 3), { days: 366, connections: 3 }, NOW)).toEqual({
      effect: 'extend',
      after: { expireAt: NOW + 376 * DAY, connections: 3, pendingConnections: null, pendingFrom: 0 },
    });
  });

  it('of more connections applies at once, converting the remaining time at the new size', () => {
    // 30 days at 1 connection are 10 days at 3, then the month.
    expect(applyPurchase(active(30, 1), { days: 31, connections: 3 }, NOW)).toEqual({
      effect: 'upgrade',
      after: { expireAt: NOW + 41 * DAY, connections: 3, pendingConnections: null, pendingFrom: 0 },
    });
    // 10 days at 2 connections are 20/3 days at 3: rounded down to the second.
    const { after } = applyPurchase(active(10, 2), { days: 31, connections: 3 }, NOW);
    expect(after.expireAt).toBe(NOW + Math.floor((10 * DAY * 2) / 3) + 31 * DAY);
  });

  it('of fewer connections keeps the current size until the expiry, then the bought size', () => {
    expect(applyPurchase(active(20, 5), { days: 31, connections: 2 }, NOW)).toEqual({
      effect: 'downgrade',
      after: { expireAt: NOW + 51 * DAY, connections: 5, pendingConnections: 2, pendingFrom: NOW + 20 * DAY },
    });
  });

  it('over a pending downgrade loses none of the time paid for', () => {
    // 20 days at 5, then 31 days at 2.
    const pending = applyPurchase(active(20, 5), { days: 31, connections: 2 }, NOW).after;
    // Same size as the pending one: the tail grows.
    expect(applyPurchase(pending, { days: 31, connections: 2 }, NOW).after).toEqual({
      ...pending,
      expireAt: NOW + 82 * DAY,
    });
    // A smaller one still: the tail's 31 days at 2 are 62 days at 1, then the bought month.
    expect(applyPurchase(pending, { days: 31, connections: 1 }, NOW)).toEqual({
      effect: 'downgrade',
      after: {
        expireAt: NOW + (20 + 62 + 31) * DAY,
        connections: 5,
        pendingConnections: 1,
        pendingFrom: NOW + 20 * DAY,
      },
    });
    // An upgrade converts both parts: 20×5 + 31×2 = 162 connection-days, at 6 = 27 days.
    expect(applyPurchase(pending, { days: 31, connections: 6 }, NOW)).toEqual({
      effect: 'upgrade',
      after: { expireAt: NOW + (27 + 31) * DAY, connections: 6, pendingConnections: null, pendingFrom: 0 },
    });
  });

  it('after a pending downgrade came due starts from the downgraded size', () => {
    const due: Entitlement = {
      expireAt: NOW + 5 * DAY,
      connections: 5,
      pendingConnections: 2,
      pendingFrom: NOW - 1,
    };
    expect(settleEntitlement(due, NOW)).toEqual({
      expireAt: NOW + 5 * DAY,
      connections: 2,
      pendingConnections: null,
      pendingFrom: 0,
    });
    expect(applyPurchase(due, { days: 31, connections: 2 }, NOW)).toMatchObject({
      effect: 'extend',
      after: { expireAt: NOW + 36 * DAY, connections: 2 },
    });
  });
});

describe('time given in seconds', () => {
  it('follows the purchase rules to the second', () => {
    expect(applyTime(none, { seconds: 100, connections: 2 }, NOW).after.expireAt).toBe(NOW + 100);
    expect(applyTime(active(1, 2), { seconds: 7, connections: 2 }, NOW)).toEqual({
      effect: 'extend',
      after: { expireAt: NOW + DAY + 7, connections: 2, pendingConnections: null, pendingFrom: 0 },
    });
    expect(applyTime(active(1, 2), { seconds: 7, connections: 1 }, NOW).after).toEqual({
      expireAt: NOW + DAY + 7,
      connections: 2,
      pendingConnections: 1,
      pendingFrom: NOW + DAY,
    });
  });
});
