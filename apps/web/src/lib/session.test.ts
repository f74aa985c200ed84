import { beforeEach, describe, expect, it } from 'vitest';
import {
  clearSession,
  getSession,
  isSignedIn,
  reloadSessionFromStorage,
  startSession,
  updateUser,
} from './session.ts';
import { STORAGE_KEYS } from './storage-keys.ts';
import { readUser } from './storage.ts';

const sessionUser = {
  token: 'tok',
  account: 'a@example.com',
  expire_user: 0,
  subscribe_type: 1 as const,
  invite_code: 'AB12',
  connections: 1,
};

beforeEach(() => {
  reloadSessionFromStorage();
});

describe('session', () => {
  it('starts from storage and stores a new session in memory and localStorage', () => {
    expect(isSignedIn()).toBe(false);
    startSession(sessionUser);
    expect(isSignedIn()).toBe(true);
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBe('tok');
    expect(readUser()).not.toHaveProperty('token');
    expect(getSession().user?.account).toBe('a@example.com');
  });

  it('merges user fields into the stored user', () => {
    startSession(sessionUser);
    updateUser({ expire_user: 1767225600 });
    expect(getSession().user?.expire_user).toBe(1767225600);
    expect(readUser()?.expire_user).toBe(1767225600);
  });

  it('clears token and user in both places', () => {
    startSession(sessionUser);
    clearSession();
    expect(getSession()).toEqual({ token: null, user: null });
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.user)).toBeNull();
  });

  it('follows another tab through the storage event', () => {
    localStorage.setItem(STORAGE_KEYS.token, 'other-tab');
    window.dispatchEvent(new StorageEvent('storage', { key: STORAGE_KEYS.token }));
    expect(getSession().token).toBe('other-tab');
  });
});
