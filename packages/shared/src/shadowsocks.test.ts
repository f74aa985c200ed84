import { expect, it } from 'vitest';
import { ssUserKey } from './shadowsocks.ts';

const SECRET = Buffer.from(Array.from({ length: 32 }, (_, i) => i)).toString('base64');

it('cuts a slot’s secret to the method’s key length', () => {
  expect(Buffer.from(ssUserKey(SECRET, '2022-blake3-aes-128-gcm'), 'base64')).toEqual(
    Buffer.from(Array.from({ length: 16 }, (_, i) => i)),
  );
  expect(ssUserKey(SECRET, '2022-blake3-aes-256-gcm')).toBe(SECRET);
  expect(ssUserKey(SECRET, '2022-blake3-chacha20-poly1305')).toBe(SECRET);
});
