import { and, eq, gt, isNull, lt, ne, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { preparedStatement } from '../../db/prepared.ts';
import { sessions, users, type SessionRow, type UserRow } from '../../db/schema/index.ts';
import { type AccountEnds, accountEndsColumns } from '../access/repository.ts';
import type { SignedInCache } from './signed-in-cache.ts';
import { hashToken } from '../../lib/token-hash.ts';
import { newSessionToken } from './tokens.ts';

export const SESSION_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;

// A sliding expiry is pushed forward at most this often, so a busy session is not a write per call.
const SLIDE_EVERY_MS = 60 * 60 * 1000;

/** Opens a session for a user; the token is returned once and only its hash is stored. */
export async function createSession(db: Database, userId: string, now = new Date()): Promise<string> {
  const token = newSessionToken();
  await db.insert(sessions).values({
    userId,
    tokenHash: hashToken(token),
    createdAt: now,
    lastSeenAt: now,
    expiresAt: new Date(now.getTime() + SESSION_LIFETIME_MS),
  });
  return token;
}

/**
 * What a signed-in call reads of its user: its reply and its checks. Not the password hash, which
 * only the change of password reads, on its own: every column here is paid for by every call.
 */
const signedInUserColumns = {
  id: users.id,
  email: users.email,
  language: users.language,
  inviteCode: users.inviteCode,
  expireAt: users.expireAt,
  subscribeType: users.subscribeType,
  connections: users.connections,
  pendingConnections: users.pendingConnections,
  pendingFrom: users.pendingFrom,
  autoRenew: users.autoRenew,
  revokedAt: users.revokedAt,
};

export type SignedInUser = Pick<UserRow, keyof typeof signedInUserColumns>;

/** What a signed-in call reads of its session: which one it is, when it last slid and when it ends. */
export type SignedInSession = Pick<SessionRow, 'id' | 'lastSeenAt' | 'expiresAt'>;

const liveSession = preparedStatement((db) =>
  db
    .select({
      session: { id: sessions.id, lastSeenAt: sessions.lastSeenAt, expiresAt: sessions.expiresAt },
      user: signedInUserColumns,
      ends: accountEndsColumns,
    })
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

/** A signed-in call's account: its session, its user, and the ends its console shows. */
export interface LiveSession {
  session: SignedInSession;
  user: SignedInUser;
  ends: AccountEnds;
}

/**
 * The live session of a token, its user and the account's ends, in one round trip (the hot path of
 * every signed-in call) or none when `cache` has it, sliding the expiry forward; undefined when none.
 */
export async function findLiveSession(
  db: Database,
  token: string,
  options: { now?: Date; cache?: SignedInCache } = {},
): Promise<LiveSession | undefined> {
  const { now = new Date(), cache } = options;
  const tokenHash = hashToken(token);
  let row = cache?.get(tokenHash, now);
  if (!row) {
    const ticket = cache?.ticket();
    [row] = await liveSession(db).execute({ tokenHash, now });
    if (!row) return undefined;
    cache?.keep(tokenHash, row, ticket, now);
  }
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
): Promise<number> {
  const mine = eq(sessions.userId, userId);
  const ended = await db
    .update(sessions)
    .set({ revokedAt: options.now ?? new Date() })
    .where(and(mine, isNull(sessions.revokedAt), options.keep ? ne(sessions.id, options.keep) : undefined))
    .returning({ id: sessions.id });
  return ended.length;
}
