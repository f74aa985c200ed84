import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { preparedStatement } from '../../db/prepared.ts';
import { sessions, users } from '../../db/schema/index.ts';
import { SESSION_LIFETIME_MS } from '../sessions/repository.ts';
import { hashToken } from '../../lib/token-hash.ts';
import { newSessionToken } from '../sessions/tokens.ts';

// One statement, prepared: the session's row goes in through a data-modifying WITH.
const recordSignIn = preparedStatement((db) => {
  const opened = db.$with('opened', {}).as(
    sql`insert into ${sessions} (user_id, token_hash, created_at, last_seen_at, expires_at)
        values (${sql.placeholder('userId')}, ${sql.placeholder('tokenHash')}, ${sql.placeholder('now')},
                ${sql.placeholder('now')}, ${sql.placeholder('expiresAt')})`,
  );
  return db
    .with(opened)
    .update(users)
    .set({
      lastLoginAt: sql`${sql.placeholder('now')}`,
      language: sql`${sql.placeholder('language')}`,
      inactiveWarnedAt: null,
    })
    .where(eq(users.id, sql.placeholder('userId')))
    .prepare('record_sign_in');
});

/**
 * Records a sign-in (which also cancels a pending inactivity warning) and opens a session, in one
 * statement: sign-in latency is one hash plus as few round trips as possible. Returns the token.
 */
export async function recordSignInWithSession(
  db: Database,
  userId: string,
  language: string,
  now: Date,
): Promise<string> {
  const token = newSessionToken();
  await recordSignIn(db).execute({
    userId,
    tokenHash: hashToken(token),
    now: now.toISOString(),
    expiresAt: new Date(now.getTime() + SESSION_LIFETIME_MS).toISOString(),
    language,
  });
  return token;
}
