import { describe, expect, it } from 'vitest';
import { createGate } from './gate.ts';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('gate', () => {
  it('runs at most its limit at once, the rest in the order they came', async () => {
    const gate = createGate(2);
    const releases: (() => void)[] = [];
    const started: number[] = [];
    const results = Array.from({ length: 5 }, (_, i) =>
      gate.run(async () => {
        started.push(i);
        await new Promise<void>((release) => releases.push(release));
        return i;
      }),
    );
    await tick();
    expect(started).toEqual([0, 1]);
    releases[1]?.();
    await tick();
    expect(started).toEqual([0, 1, 2]);
    // A newcomer waits behind those already waiting.
    const late = gate.run(async () => {
      started.push(9);
      return 9;
    });
    releases[0]?.();
    await tick();
    expect(started).toEqual([0, 1, 2, 3]);
    releases[2]?.();
    releases[3]?.();
    await tick();
    expect(started).toEqual([0, 1, 2, 3, 4, 9]);
    releases[4]?.();
    expect(await Promise.all([...results, late])).toEqual([0, 1, 2, 3, 4, 9]);
  });

  it('frees the place of a task that failed', async () => {
    const gate = createGate(1);
    await expect(gate.run(() => Promise.reject(new Error('no')))).rejects.toThrow('no');
    expect(await gate.run(async () => 'next')).toBe('next');
  });
});
