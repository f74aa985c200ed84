import { and, desc, eq, isNull, lt, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { type EmailCodeRow, emailCodes } from '../../db/schema/index.ts';

export async function insertCode(db: Database, values: typeof emailCodes.$inferInsert): Promise<void> {
  await db.insert(emailCodes).values(values);
}

/** The newest unused code for (address, scene): a newer code makes every older one useless. */
export async function latestOpenCode(
  db: Database,
  email: string,
  scene: string,
): Promise<EmailCodeRow | undefined> {
  const [row] = await db
    .select()
    .from(emailCodes)
    .where(and(eq(emailCodes.email, email), eq(emailCodes.scene, scene), isNull(emailCodes.consumedAt)))
    .orderBy(desc(emailCodes.createdAt))
    .limit(1);
  return row;
}

/**
 * Spends one of a code's tries before its value is compared, in one statement, so that parallel
 * guesses cannot together spend more tries than there are.
 */
export async function spendTry(db: Database, id: string, maxTries: number): Promise<boolean> {
  const rows = await db
    .update(emailCodes)
    .set({ attempts: sql`${emailCodes.attempts} + 1` })
    .where(and(eq(emailCodes.id, id), lt(emailCodes.attempts, maxTries), isNull(emailCodes.consumedAt)))
    .returning({ id: emailCodes.id });
  return rows.length === 1;
}

/** Marks a code used; false when another request used it first. */
export async function markUsed(db: Database, id: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(emailCodes)
    .set({ consumedAt: now })
    .where(and(eq(emailCodes.id, id), isNull(emailCodes.consumedAt)))
    .returning({ id: emailCodes.id });
  return rows.length === 1;
}
