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
});
