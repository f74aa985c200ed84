import { expect, it } from 'vitest';
import { formatBytes } from './bytes.ts';

it.each([
  [0, '0 B'],
  [1023, '1023 B'],
  [1024, '1.00 KB'],
  [1536, '1.50 KB'],
  [10 * 1024 * 1024, '10.0 MB'],
  [23.4 * 1024 ** 3, '23.4 GB'],
  [5 * 1024 ** 6, '5120.0 PB'],
])('formats %d bytes as %s', (bytes, text) => {
  expect(formatBytes(bytes)).toBe(text);
});
