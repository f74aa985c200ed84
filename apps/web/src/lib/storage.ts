import { isLanguage, type Language } from '@skyway/shared/languages';
import type { User } from '@skyway/shared/user';
import { STORAGE_KEYS } from './storage-keys.ts';

type BrowserStorage = 'localStorage' | 'sessionStorage';

// Storage access throws when the browser blocks site data (some private modes, strict cookie
// settings); the site must still work, only without remembering anything.
function read(area: BrowserStorage, key: string): string | null {
  try {
    return window[area].getItem(key);
  } catch {
    return null;
  }
}

function write(area: BrowserStorage, key: string, value: string | null): void {
  try {
    if (value === null) window[area].removeItem(key);
    else window[area].setItem(key, value);
  } catch {
    // See read(): nothing to remember then.
  }
}

export function readToken(): string | null {
  const token = read('localStorage', STORAGE_KEYS.token);
  return token ? token : null;
}

export function writeToken(token: string | null): void {
  write('localStorage', STORAGE_KEYS.token, token);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// A hand check rather than the shared zod schema, which would pull zod's runtime into the public
// entry; the value was written by this very module, so only its shape can have gone stale.
function isStoredUser(value: unknown): value is User {
  return (
    isRecord(value) &&
    typeof value.account === 'string' &&
    typeof value.expire_user === 'number' &&
    (value.subscribe_type === 1 || value.subscribe_type === 2 || value.subscribe_type === 3) &&
    typeof value.invite_code === 'string' &&
    typeof value.connections === 'number'
  );
}

/** The stored user, or null when missing or no longer of the expected shape. */
export function readUser(): User | null {
  const text = read('localStorage', STORAGE_KEYS.user);
  if (!text) return null;
  try {
    const value: unknown = JSON.parse(text);
    return isStoredUser(value) ? value : null;
  } catch {
    return null;
  }
}

export function writeUser(user: User | null): void {
  write('localStorage', STORAGE_KEYS.user, user ? JSON.stringify(user) : null);
}

export function readLanguage(): Language | null {
  const value = read('localStorage', STORAGE_KEYS.language);
  return isLanguage(value) ? value : null;
}

export function writeLanguage(language: Language): void {
  write('localStorage', STORAGE_KEYS.language, language);
}

export function writeFlash(text: string): void {
  write('sessionStorage', STORAGE_KEYS.flash, text);
}

/** Returns the pending flash message once, then forgets it. */
export function takeFlash(): string | null {
  const text = read('sessionStorage', STORAGE_KEYS.flash);
  if (text !== null) write('sessionStorage', STORAGE_KEYS.flash, null);
  return text;
}
