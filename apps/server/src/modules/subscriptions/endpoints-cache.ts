import type { Database } from '../../db/client.ts';
import { enabledEndpoints } from './repository.ts';

/**
 * How long an instance serves the enabled nodes and inbounds it read before reading them again. The
 * back office's changes drop them at once on the instance that made them (`forgetEnabledEndpoints`);
 * the other instances serve the change within this time.
 */
export const ENDPOINTS_TTL_MS = 5_000;

type Endpoints = Awaited<ReturnType<typeof enabledEndpoints>>;

/** The list being served, per database (one per app): the read itself, so that fetches share it. */
const cached = new WeakMap<Database, { value: Promise<Endpoints>; expiresAt: number }>();

/**
 * Every enabled inbound of every enabled node (`enabledEndpoints`), read at most once every
 * ENDPOINTS_TTL_MS: every subscription fetch needs them, and they change when staff change them.
 * Fetches that come while the list is being read wait for that read rather than making their own.
 */
export function cachedEnabledEndpoints(db: Database, now = Date.now()): Promise<Endpoints> {
  const entry = cached.get(db);
  if (entry && entry.expiresAt > now) return entry.value;
  const value = enabledEndpoints(db);
  const fresh = { value, expiresAt: now + ENDPOINTS_TTL_MS };
  cached.set(db, fresh);
  // A failed read is not kept: the next fetch reads again.
  value.catch(() => {
    if (cached.get(db) === fresh) cached.delete(db);
  });
  return value;
}

/**
 * Drops the list, after the back office has changed a node or an inbound (once the change has
 * committed): the next fetch reads them again. A read already under way keeps serving the fetches
 * that were waiting for it; the ones after read anew.
 */
export function forgetEnabledEndpoints(db: Database): void {
  cached.delete(db);
}
