import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { mailOutbox, type MailOutboxRow } from '../../db/schema/index.ts';

export interface NewOutboxMail {
  to: string;
  template: string;
  language: string;
  subject: string;
  text: string;
  html: string;
}

export async function insertOutboxMail(db: Database, mail: NewOutboxMail): Promise<MailOutboxRow> {
  const [row] = await db.insert(mailOutbox).values(mail).returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}

export async function markOutboxSent(db: Database, id: string, sentAt: Date): Promise<void> {
  await db.update(mailOutbox).set({ sentAt, error: null }).where(eq(mailOutbox.id, id));
}

export async function markOutboxFailed(db: Database, id: string, error: string): Promise<void> {
  await db.update(mailOutbox).set({ error }).where(eq(mailOutbox.id, id));
}
