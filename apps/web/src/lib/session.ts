import { useSyncExternalStore } from 'react';
import type { SessionUser, User } from '@skyway/shared/user';
import { STORAGE_KEYS } from './storage-keys.ts';
import { readToken, readUser, writeToken, writeUser } from './storage.ts';

/** Signed in means a token is present; the user may still be loading. */
export interface Session {
  token: string | null;
  user: User | null;
}

let current: Session = { token: readToken(), user: readUser() };
const listeners = new Set<() => void>();

function publish(next: Session): void {
  current = next;
  for (const listener of listeners) listener();
}

export function getSession(): Session {
  return current;
}

export function isSignedIn(): boolean {
  return current.token !== null;
}

export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useSession(): Session {
  return useSyncExternalStore(subscribeSession, getSession);
}

/** Re-reads the stored session, e.g. after another tab signed in or out. */
export function reloadSessionFromStorage(): void {
  publish({ token: readToken(), user: readUser() });
}

/** After a successful login or register. */
export function startSession({ token, ...user }: SessionUser): void {
  writeToken(token);
  writeUser(user);
  publish({ token, user });
}

/**
 * Stores a new session for the page that is about to be opened, without telling this page: the
 * guard here would otherwise send the now signed-in visitor of /login to / before the browser
 * leaves for the console (spec section 2).
 */
export function saveSessionForNextPage({ token, ...user }: SessionUser): void {
  writeToken(token);
  writeUser(user);
}

/** Merges fresh user fields into the stored user; nothing happens when no user is stored. */
export function updateUser(fields: Partial<User>): void {
  if (!current.user) return;
  const user = { ...current.user, ...fields };
  writeUser(user);
  publish({ ...current, user });
}

/** Stores a whole user, as read from `/web/user/info`, while signed in. */
export function replaceUser(user: User): void {
  if (current.token === null) return;
  writeUser(user);
  publish({ ...current, user });
}

export function clearSession(): void {
  writeToken(null);
  writeUser(null);
  publish({ token: null, user: null });
}

// Another tab that signs in or out changes localStorage only; follow it so this tab's guard and
// top bar do not act on a stale session.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key === null || event.key === STORAGE_KEYS.token || event.key === STORAGE_KEYS.user) {
      reloadSessionFromStorage();
    }
  });
}
