import type { Database } from './client.ts';

export interface ReadCache<T> {
  /** The value, read at most once every `ttlMs`; calls that come while it is being read share that read. */
  get(db: Database, now?: number): Promise<T>;
  /** Drops it, once a change has committed: the next call reads anew (a read under way still serves its waiters). */
  forget(db: Database): void;
}

/**
 * A read many requests need and few changes touch, kept per database (one per app) for `ttlMs`. The
 * instance that makes a change drops it at once; other instances serve the change within `ttlMs`.
 */
export function readCache<T>(ttlMs: number, read: (db: Database) => Promise<T>): ReadCache<T> {
  const cached = new WeakMap<Database, { value: Promise<T>; expiresAt: number }>();
  return {
    get(db, now = Date.now()) {
      const entry = cached.get(db);
      if (entry && entry.expiresAt > now) return entry.value;
      const value = read(db);
      const fresh = { value, expiresAt: now + ttlMs };
      cached.set(db, fresh);
      // A failed read is not kept: the next call reads again.
      value.catch(() => {
        if (cached.get(db) === fresh) cached.delete(db);
      });
      return value;
    },
    forget(db) {
      cached.delete(db);
    },
  };
}
