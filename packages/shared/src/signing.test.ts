import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signParams } from './signing.ts';

describe('signParams', () => {
  it('signs fixed vectors: sorted names, values joined, secret appended, MD5', () => {
    // md5('us-en1700000000' + 'secret')
    expect(signParams({ t: 1700000000, l: 'us-en' }, 'secret')).toBe('b1ec53a96fecf8afd7c1770791a83148');
    // md5('a@b.co' + 'zh-cn' + 'register' + '1700000000' + 'k3y'): email < l < scene < t
    expect(signParams({ scene: 'register', t: '1700000000', email: 'a@b.co', l: 'zh-cn' }, 'k3y')).toBe(
      '1bc6234253061b21dfd7aa572412ad5b',
    );
  });

  it('leaves out s itself and absent values', () => {
    const base = { t: 1700000000, l: 'us-en' };
    const expected = signParams(base, 'secret');
    expect(signParams({ ...base, s: 'anything' }, 'secret')).toBe(expected);
    expect(signParams({ ...base, invite_code: undefined, x: null }, 'secret')).toBe(expected);
  });

  it('changes when any value or the secret changes', () => {
    const base = { t: 1700000000, l: 'us-en', email: 'a@b.co' };
    const signature = signParams(base, 'secret');
    expect(signParams({ ...base, email: 'a@b.cn' }, 'secret')).not.toBe(signature);
    expect(signParams(base, 'secret2')).not.toBe(signature);
  });

  it('is the MD5 of the secret alone when there are no parameters: the RFC 1321 test suite', () => {
    expect(signParams({}, '')).toBe('d41d8cd98f00b204e9800998ecf8427e');
    expect(signParams({}, 'a')).toBe('0cc175b9c0f1b6a831c399e269772661');
    expect(signParams({}, 'abc')).toBe('900150983cd24fb0d6963f7d28e17f72');
    expect(signParams({}, 'message digest')).toBe('f96b697d7cb7938d525a2f31aaf161d0');
    expect(signParams({}, 'abcdefghijklmnopqrstuvwxyz')).toBe('c3fcd3d76192e4007dfb496cca67e13b');
    expect(signParams({}, '1234567890'.repeat(8))).toBe('57edf4a22be3c955ac49da2e2107b67a');
  });

  it('hashes UTF-8 text, and every padding boundary, as node:crypto does', () => {
    const samples = ['支付成功', '帳號 ✓ 😀', ...Array.from({ length: 130 }, (_, n) => 'x'.repeat(n))];
    for (const text of samples) {
      expect(signParams({}, text)).toBe(createHash('md5').update(text, 'utf8').digest('hex'));
    }
  });
});
