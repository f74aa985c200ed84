/** The value, or a failed test saying what was missing (instead of a non-null assertion). */
export function present<T>(value: T | undefined, what = 'a value'): T {
  if (value === undefined) throw new Error(`expected ${what}`);
  return value;
}
