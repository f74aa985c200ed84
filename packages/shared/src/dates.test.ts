import { describe, expect, it } from 'vitest';
import { formatDateTime, toDate } from './dates.ts';

describe('dates', () => {
  it('reads a 10-digit number as seconds and a longer one as milliseconds', () => {
    expect(toDate(1700000000).getTime()).toBe(1700000000 * 1000);
    expect(toDate('1700000000').getTime()).toBe(1700000000 * 1000);
    expect(toDate(1700000000123).getTime()).toBe(1700000000123);
  });

  it('formats as YYYY-MM-DD HH:mm:ss in local time', () => {
    const local = new Date(2026, 0, 5, 7, 8, 9);
    expect(formatDateTime(local)).toBe('2026-01-05 07:08:09');
    expect(formatDateTime(Math.floor(local.getTime() / 1000))).toBe('2026-01-05 07:08:09');
  });

  it('gives an empty string for a missing or invalid time', () => {
    expect(formatDateTime(undefined)).toBe('');
    expect(formatDateTime('not a date')).toBe('');
  });
});
