import { and, eq, gt, isNull, lt, ne, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { preparedStatement } from '../../db/prepared.ts';
import { sessions, users, type SessionRow, type UserRow } from '../../db/schema/index.ts';
import { hashSessionToken, newSessionToken } from './tokens.ts';

export const SESSION_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;

// A sliding expiry is pushed forward at most this often, so a busy session is not a write per call.
const SLIDE_EVERY_MS = 60 * 60 * 1000;

/** Opens a session for a user; the token is returned once and only its hash is stored. */
export async function createSession(db: Database, userId: string, now = new Date()): Promise<string> {
  const token = newSessionToken();
  await db.insert(sessions).values({
    userId,
    tokenHash: hashSessionToken(token),
    createdAt: now,
    lastSeenAt: now,
    expiresAt: new Date(now.getTime() + SESSION_LIFETIME_MS),
  });
  return token;
}

const liveSession = preparedStatement((db) =>
  db
    .select({ session: sessions, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.tokenHash, sql.placeholder('tokenHash')),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, sql.placeholder('now')),
      ),
    )
    .limit(1)
    .prepare('live_session'),
);

/** The live session of a token and its user, sliding the expiry forward; undefined when none. */
export async function findLiveSession(
  db: Database,
  token: string,
  now = new Date(),
): Promise<{ session: SessionRow; user: UserRow } | undefined> {
  const [row] = await liveSession(db).execute({ tokenHash: hashSessionToken(token), now });
  if (!row) return undefined;
  if (now.getTime() - row.session.lastSeenAt.getTime() >= SLIDE_EVERY_MS) {
    await db
      .update(sessions)
      .set({ lastSeenAt: now, expiresAt: new Date(now.getTime() + SESSION_LIFETIME_MS) })
      .where(and(eq(sessions.id, row.session.id), lt(sessions.lastSeenAt, now)));
  }
  return row;
}

export async function revokeSession(db: Database, sessionId: string, now = new Date()): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}

/** Ends every session of a user, or every one but `keep` (the one that asked). */
export async function revokeUserSessions(
  db: Database,
  userId: string,
  options: { keep?: string; now?: Date } = {},
): Promise<void> {
  const mine = eq(sessions.userId, userId);
  await db
    .update(sessions)
    .set({ revokedAt: options.now ?? new Date() })
    .where(and(mine, isNull(sessions.revokedAt), options.keep ? ne(sessions.id, options.keep) : undefined));
}
