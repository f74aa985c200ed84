import { describe, expect, it } from 'vitest';
import { createPacer } from './pacer.ts';

/** A clock that moves only when the pacer waits, and whose every timer fires `lateMs` late. */
function lateTimers(lateMs: number) {
  let now = 0;
  return {
    clock: () => now,
    wait: async (ms: number) => {
      now += ms + lateMs;
    },
  };
}

describe('the Telegram pacer', () => {
  it('keeps the rate of 30 a second when every timer fires late, and never 31 within a second', async () => {
    const { clock, wait } = lateTimers(20);
    const pacer = createPacer(30, clock, wait);
    const sent: number[] = [];
    for (let chat = 0; chat < 300; chat++) {
      await pacer.slot(chat);
      sent.push(clock());
    }
    // Late timers counted from each send would take 300 × (34.3 + 20) ms, over 16 s.
    expect(sent.at(-1)).toBeLessThan(300 * (1000 / 30) * 1.1);
    for (let n = 30; n < sent.length; n++) {
      expect((sent[n] as number) - (sent[n - 30] as number)).toBeGreaterThanOrEqual(1000);
    }
  });

  it('sends to one chat at most once a second, and nothing during a pause', async () => {
    const { clock, wait } = lateTimers(0);
    const pacer = createPacer(30, clock, wait);
    await pacer.slot(1);
    await pacer.slot(1);
    expect(clock()).toBeGreaterThanOrEqual(1000);
    pacer.pause(5000);
    const paused = clock();
    await pacer.slot(2);
    expect(clock() - paused).toBeGreaterThanOrEqual(5000);
  });
});
