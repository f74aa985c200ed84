import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { users } from '../../db/schema/index.ts';
import { cancelWaitingListMail } from '../mail/repository.ts';

/** The account's language, when it exists. */
export async function accountLanguage(db: Database, userId: string): Promise<string | undefined> {
  const [row] = await db.select({ language: users.language }).from(users).where(eq(users.id, userId));
  return row?.language;
}

/**
 * The account wants no more reminders and notices by mail: marked (the first time counts), and those
 * still waiting in the outbox are cancelled. Account mail is not touched.
 */
export async function optOut(db: Database, userId: string, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ mailOptOutAt: sql`coalesce(${users.mailOptOutAt}, ${now})` })
      .where(eq(users.id, userId));
    await cancelWaitingListMail(tx, userId, now);
  });
}
