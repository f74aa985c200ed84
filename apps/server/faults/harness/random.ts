import { randomBytes, randomInt } from 'node:crypto';

/**
 * A client address from the benchmarking range (198.18.0.0/15), new each time. Every virtual client
 * sends its own as X-Forwarded-For, so the per-address limits (and counters that a shared Redis keeps
 * from earlier runs) never decide what a fault test sees.
 */
export const randomClientAddress = () => `198.${18 + randomInt(2)}.${randomInt(256)}.${randomInt(1, 255)}`;

/** An address no earlier run has used: code and sign-in limits count per address. */
export const uniqueEmail = (label: string) => `${label}-${randomBytes(6).toString('hex')}@example.com`;

export interface SeededRandom {
  /** In [0, 1). */
  next(): number;
  /** An integer in [0, n). */
  int(n: number): number;
  pick<T>(items: readonly T[]): T;
  chance(probability: number): boolean;
}

/** mulberry32: small, fast and the same on every machine, so a seed reproduces a failure. */
export function seededRandom(seed: number): SeededRandom {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return {
    next,
    int,
    pick: <T>(items: readonly T[]) => {
      const item = items[int(items.length)];
      if (item === undefined) throw new Error('pick from an empty list');
      return item;
    },
    chance: (probability) => next() < probability,
  };
}
