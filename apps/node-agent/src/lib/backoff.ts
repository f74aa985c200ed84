/**
 * Exponential backoff with "equal jitter": attempt n waits between half and all of
 * min(max, base·2ⁿ), so many nodes that lost the panel at once do not come back in step, and no
 * wait is ever near zero.
 */
export interface BackoffOptions {
  baseMs: number;
  maxMs: number;
  random?: () => number;
}

export function backoffDelay(attempt: number, options: BackoffOptions): number {
  const ceiling = Math.min(options.maxMs, options.baseMs * 2 ** Math.min(attempt, 30));
  const random = options.random ?? Math.random;
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** Counts failures in a row and says how long to wait before the next try. */
export class Backoff {
  private attempt = 0;

  constructor(private readonly options: BackoffOptions) {}

  /** The wait after one more failure. */
  next(): number {
    return backoffDelay(this.attempt++, this.options);
  }

  reset(): void {
    this.attempt = 0;
  }

  get failures(): number {
    return this.attempt;
  }
}
