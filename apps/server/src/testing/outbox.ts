import type { DatabaseHandle } from '../db/client.ts';
import { mailOutbox } from '../db/schema/index.ts';

/** A message in the outbox for a back-office action: failed (to send again) or waiting an hour (to cancel). */
export async function outboxMail(database: DatabaseHandle, status: 'failed' | 'pending'): Promise<string> {
  const [mail] = await database.db
    .insert(mailOutbox)
    .values({
      to: 'a@example.com',
      template: 'password_changed',
      language: 'en',
      subject: 'Subject',
      text: 'Body',
      html: '<p>Body</p>',
      status,
      nextAttemptAt: new Date(Date.now() + 3_600_000),
    })
    .returning({ id: mailOutbox.id });
  if (!mail) throw new Error('no mail');
  return mail.id;
}
