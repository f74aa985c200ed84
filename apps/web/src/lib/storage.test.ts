import { afterEach, describe, expect, it, vi } from 'vitest';
import type { User } from '@skyway/shared/user';
import { STORAGE_KEYS } from './storage-keys.ts';
import {
  readLanguage,
  readToken,
  readUser,
  takeFlash,
  writeFlash,
  writeLanguage,
  writeToken,
  writeUser,
} from './storage.ts';

const user: User = {
  account: 'a@example.com',
  expire_user: 1767225600,
  subscribe_type: 2,
  invite_code: 'AB12',
  connections: 2,
};

afterEach(() => {
  vi.restoreAllMocks();
});

describe('storage', () => {
  it('keeps the token under its key and forgets it on null', () => {
    expect(readToken()).toBeNull();
    writeToken('tok');
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBe('tok');
    expect(readToken()).toBe('tok');
    writeToken(null);
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
  });

  it('treats an empty token as none', () => {
    localStorage.setItem(STORAGE_KEYS.token, '');
    expect(readToken()).toBeNull();
  });

  it('round-trips the user as JSON', () => {
    writeUser(user);
    expect(JSON.parse(localStorage.getItem(STORAGE_KEYS.user) ?? '')).toEqual(user);
    expect(readUser()).toEqual(user);
    writeUser(null);
    expect(readUser()).toBeNull();
  });

  it.each([
    ['not JSON', '{'],
    ['a wrong shape', JSON.stringify({ account: 'a', expire_user: '0' })],
    ['an unknown subscription type', JSON.stringify({ ...user, subscribe_type: 4 })],
    ['an array', '[]'],
  ])('reads no user from %s', (_, text) => {
    localStorage.setItem(STORAGE_KEYS.user, text);
    expect(readUser()).toBeNull();
  });

  it('keeps only the supported languages', () => {
    expect(readLanguage()).toBeNull();
    writeLanguage('tw');
    expect(localStorage.getItem(STORAGE_KEYS.language)).toBe('tw');
    expect(readLanguage()).toBe('tw');
    localStorage.setItem(STORAGE_KEYS.language, 'fr');
    expect(readLanguage()).toBeNull();
  });

  it('hands a flash message out once, from sessionStorage', () => {
    writeFlash('Signed out');
    expect(sessionStorage.getItem(STORAGE_KEYS.flash)).toBe('Signed out');
    expect(takeFlash()).toBe('Signed out');
    expect(takeFlash()).toBeNull();
  });

  it('works without storage when the browser refuses it', () => {
    // Chrome throws on the very access to localStorage when site data is blocked.
    vi.spyOn(window, 'localStorage', 'get').mockImplementation(() => {
      throw new DOMException('denied', 'SecurityError');
    });
    expect(() => writeToken('tok')).not.toThrow();
    expect(readToken()).toBeNull();
    expect(readUser()).toBeNull();
    expect(readLanguage()).toBeNull();
  });
});
