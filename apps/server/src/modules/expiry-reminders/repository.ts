import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { expiryReminders, users } from '../../db/schema/index.ts';

/** An account a reminder is now recorded for, with what its mail says. */
export interface RemindedAccount {
  id: string;
  email: string;
  language: string;
  expire_at: Date | string;
  connections: number;
  /** The period of the account's latest paid order; null when it never paid (a trial, invitations). */
  period: string | null;
}

/**
 * Records the next `limit` reminders due `days` before the end of access (0: at the end) and
 * answers the accounts they are for. Due: the reminder's moment (the end less `days`) has passed,
 * less than `catchUpMs` ago (a job that was down sends what is still worth sending, not last week's);
 * the account is not closed, not warned as inactive, not unsubscribed, and does not renew itself
 * (App Store auto-renewal); and it knew this end before the moment (a trial claimed a day before its
 * end gets no "one day left" at once). The key (account, end, days) makes each reminder one row:
 * instances running this together each get only the rows they inserted.
 */
export async function recordDueReminders(
  tx: Database,
  options: { days: number; now: Date; catchUpMs: number; limit: number },
): Promise<RemindedAccount[]> {
  const { days, now, catchUpMs, limit } = options;
  const lead = days * 24 * 60 * 60 * 1000;
  const endsBy = new Date(now.getTime() + lead);
  const endsAfter = new Date(now.getTime() + lead - catchUpMs);
  const result = await tx.execute(sql`
    with due as (
      select u.id, u.expire_at from ${users} u
      where u.expire_at > ${endsAfter} and u.expire_at <= ${endsBy}
        and u.revoked_at is null and u.inactive_warned_at is null and u.mail_opt_out_at is null
        and not u.auto_renew
        and not exists (select 1 from ${expiryReminders} r
          where r.user_id = u.id and r.expire_at = u.expire_at and r.days = ${days})
        and not exists (select 1 from expiry_ledger l
          where l.user_id = u.id and l.to_expire_at = u.expire_at
            and l.created_at > u.expire_at - ${`${days} days`}::interval)
      order by u.expire_at, u.id
      limit ${limit}
    ), recorded as (
      insert into ${expiryReminders} (user_id, expire_at, days, sent_at)
      select id, expire_at, ${days}, ${now} from due
      on conflict do nothing
      returning user_id
    )
    select u.id, u.email, u.language, u.expire_at, u.connections,
      (select o.period from orders o where o.user_id = u.id and o.status = 'paid'
        order by o.created_at desc limit 1) as period
    from recorded join ${users} u on u.id = recorded.user_id`);
  return rowsOf<RemindedAccount>(result);
}

/** Takes recorded reminders back (their mail could not be written), so that the next run sends them. */
export async function forgetReminders(
  db: Database,
  accounts: readonly { id: string; expire_at: Date | string }[],
  days: number,
): Promise<void> {
  for (const account of accounts) {
    await db
      .delete(expiryReminders)
      .where(
        and(
          eq(expiryReminders.userId, account.id),
          eq(expiryReminders.expireAt, new Date(account.expire_at)),
          eq(expiryReminders.days, days),
        ),
      );
  }
}
