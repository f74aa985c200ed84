import { describe, expect, it } from 'vitest';
import { couponDiscount, normalizeCouponCode, priceOrder } from './coupons.ts';

describe('coupon pricing', () => {
  it('rounds a percent off half up to the fen', () => {
    // 15 % of 2 503 fen is 375.45 → 375; of 2 510 it is 376.5 → 377.
    expect(couponDiscount(2503, { kind: 'percent', value: 15 })).toBe(375);
    expect(couponDiscount(2510, { kind: 'percent', value: 15 })).toBe(377);
    expect(couponDiscount(1, { kind: 'percent', value: 50 })).toBe(1);
    expect(couponDiscount(1, { kind: 'percent', value: 49 })).toBe(0);
  });

  it('takes 100 % to zero and never goes below zero', () => {
    expect(couponDiscount(2500, { kind: 'percent', value: 100 })).toBe(2500);
    expect(couponDiscount(2500, { kind: 'fixed', value: 2500 })).toBe(2500);
    expect(couponDiscount(2500, { kind: 'fixed', value: 9999 })).toBe(2500);
    expect(priceOrder(2500, { kind: 'fixed', value: 9999 }, 300).amount).toBe(0);
  });

  it('puts the gateway fee on the discounted price', () => {
    expect(priceOrder(10_000, { kind: 'percent', value: 20 }, 300)).toEqual({
      price: 10_000,
      discount: 2000,
      fee: 240,
      amount: 8240,
    });
    expect(priceOrder(10_000, null, 300)).toEqual({ price: 10_000, discount: 0, fee: 300, amount: 10_300 });
    expect(priceOrder(2500, { kind: 'fixed', value: 1 }, 0).amount).toBe(2499);
  });

  it('reads codes without regard to case or spaces around them', () => {
    expect(normalizeCouponCode('  spring-10 ')).toBe('SPRING-10');
  });
});
