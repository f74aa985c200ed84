import { describe, expect, it } from 'vitest';
import { NOTIFY_PER_MINUTE } from '../src/modules/payments/gateway-notify.ts';
import { benchAddress, notifiesFor, notifyPlan, sendingAddresses } from './gateway-notify-plan.ts';

// The send plan of `npm run bench:notify` (the bench itself is timed and not part of the tests).
describe('the notify bench plan', () => {
  it('notifies every order once and every tenth twice in a row', () => {
    const plan = notifyPlan(25, 10);
    expect(plan).toHaveLength(notifiesFor(25, 10));
    expect(new Set(plan)).toEqual(new Set(Array.from({ length: 25 }, (_, order) => order)));
    expect(plan.slice(8, 12)).toEqual([8, 9, 9, 10]);
    expect(plan.slice(-6)).toEqual([19, 19, 20, 21, 22, 23, 24].slice(1));
    expect(notifyPlan(3, 0)).toEqual([0, 1, 2]);
  });

  it('sends from enough addresses that none passes the limit at a sustained rate', () => {
    const addresses = sendingAddresses(1_100, NOTIFY_PER_MINUTE);
    expect((1_100 * 60) / addresses).toBeLessThanOrEqual(NOTIFY_PER_MINUTE);
    expect((1_100 * 60) / (addresses - 1)).toBeGreaterThan(NOTIFY_PER_MINUTE);
    // The range holds 2 × 256 × 254 host addresses (none ending in .0 or .255), each used once.
    const used = Array.from({ length: 2 * 256 * 254 }, (_, index) => benchAddress(index));
    expect(new Set(used).size).toBe(used.length);
    expect(benchAddress(used.length)).toBe(used[0]);
    expect([used[0], used.at(-1)]).toEqual(['198.18.0.1', '198.19.255.254']);
  });
});
