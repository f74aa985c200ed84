import { describe, expect, it } from 'vitest';
import { AppError } from '../../http/errors.ts';
import { createMemoryCounters } from '../limits/counters.ts';
import { checkCodeLimits, CODES_PER_ADDRESS_PER_DAY, CODES_PER_IP_PER_DAY } from './service.ts';

/** In-process counters on a clock the test moves: a minute passes between requests, a day does not. */
function minuteByMinute() {
  let now = Date.UTC(2026, 10, 22);
  const counters = createMemoryCounters(() => now);
  return { counters, nextMinute: () => (now += 61_000) };
}

async function refusal(promise: Promise<unknown>): Promise<AppError | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
}

describe('code request limits', () => {
  it('allow 10 codes a day to one address, then 429 until the day is over', async () => {
    const { counters, nextMinute } = minuteByMinute();
    for (let i = 0; i < CODES_PER_ADDRESS_PER_DAY; i++) {
      nextMinute();
      const scene = i % 2 ? 'register' : 'forget';
      expect(
        await refusal(checkCodeLimits(counters, { email: 'A@example.com', scene, ip: `10.0.0.${i}` })),
      ).toBeUndefined();
    }
    nextMinute();
    const refused = await refusal(
      checkCodeLimits(counters, { email: 'a@example.com', scene: 'register', ip: '10.0.1.1' }),
    );
    expect(refused?.code).toBe(429);
    expect(refused?.reason).toBe('too_many_requests');
    expect(refused?.details.retryAfter).toBeGreaterThan(23 * 60 * 60);
  });

  it('allow 30 codes a day from one client address, whatever the addresses', async () => {
    const { counters, nextMinute } = minuteByMinute();
    for (let i = 0; i < CODES_PER_IP_PER_DAY; i++) {
      nextMinute();
      expect(
        await refusal(
          checkCodeLimits(counters, { email: `u${i}@example.com`, scene: 'register', ip: '10.0.0.1' }),
        ),
      ).toBeUndefined();
    }
    const refused = await refusal(
      checkCodeLimits(counters, { email: 'new@example.com', scene: 'register', ip: '10.0.0.1' }),
    );
    expect(refused?.code).toBe(429);
    // Another client address may still ask, once the address's own minute is over.
    nextMinute();
    const elsewhere = { email: 'new@example.com', scene: 'register' as const, ip: '10.0.0.2' };
    expect(await refusal(checkCodeLimits(counters, elsewhere))).toBeUndefined();
  });

  it('allow one code a minute per address and scene', async () => {
    const { counters, nextMinute } = minuteByMinute();
    const request = { email: 'a@example.com', scene: 'register' as const, ip: '10.0.0.1' };
    expect(await refusal(checkCodeLimits(counters, request))).toBeUndefined();
    const refused = await refusal(checkCodeLimits(counters, request));
    expect(refused?.reason).toBe('code_resend_too_soon');
    expect(refused?.details.retryAfter).toBe(60);
    nextMinute();
    expect(await refusal(checkCodeLimits(counters, request))).toBeUndefined();
  });
});
