import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';

/**
 * Accounts, invitations and orders at scale for the list queries, written by `generate_series` in a
 * few statements. Account n (from 1) has a known id and address. Account 1 invited accounts 2 to
 * `invitees + 1` and bought `orders` orders; of the other accounts, every fourth was invited by one of
 * a thousand smaller inviters and every second bought one order. Accounts, and account 1's orders,
 * are created in pairs at the same instant, so the id decides their order within a pair: newest
 * first is highest n first.
 */
export interface ListData {
  accounts: number;
  invitees: number;
  orders: number;
}

const START = '2024-01-01T00:00:00Z';

export const LIST_OWNER = 1;

export const accountId = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
export const accountEmail = (n: number) => `account-${n}@example.com`;
export const ownerOrderId = (k: number) => `order-${k.toString().padStart(9, '0')}`;

/** An invitation over the daily cap earns nothing: every fourth account. */
export const earnedReward = (n: number) => n % 4 !== 0;
export const claimedReward = (n: number) => earnedReward(n) && n % 3 === 0;
export const REWARD_MINUTES = 60;

const idOf = (n: unknown) => sql`('00000000-0000-4000-8000-' || lpad(to_hex((${n})::int), 12, '0'))::uuid`;

export async function seedListData(db: Database, data: ListData): Promise<void> {
  const accounts = sql`${data.accounts}::int`;
  const lastInvitee = sql`${data.invitees + 1}::int`;
  const n = sql.raw('n');
  await db.execute(sql`
    with seeded as (
      select n, ${idOf(n)} as id,
        case when n between 2 and ${lastInvitee} then ${idOf(LIST_OWNER)}
             when n > ${lastInvitee} and n % 4 = 0 then ${idOf(sql`${lastInvitee} + 1 + n % 1000`)}
        end as invited_by,
        ${START}::timestamptz + (n / 2) * interval '1 minute' as created_at
      from generate_series(1, ${accounts}) as n
    ), accounts as (
      insert into users (id, email, invite_code, invited_by, created_at, last_login_at)
      select id, 'account-' || n || '@example.com', 'I' || n, invited_by, created_at, created_at from seeded
    )
    insert into invite_rewards (inviter_id, invitee_id, minutes, created_at, claimed_at)
    select invited_by, id, ${REWARD_MINUTES}, created_at,
      case when n % 3 = 0 then created_at + interval '1 day' end
    from seeded where invited_by is not null and n % 4 <> 0`);
  await db.execute(sql`
    insert into orders (id, user_id, period, months, days, connections, unit_price, amount, currency,
      pay_method, provider, status, created_at, latest_pay_at, paid_at)
    select id, user_id, 'month', 1, 31, 1, 2500, 2500, 'CNY', 'card', 'sandbox', 'paid', created_at,
      created_at + interval '30 minutes', created_at
    from (
      select 'order-' || lpad(k::text, 9, '0') as id, ${idOf(LIST_OWNER)} as user_id,
        ${START}::timestamptz + (k / 2) * interval '1 hour' as created_at
      from generate_series(1, ${data.orders}::int) as k
      union all
      select 'order-account-' || n, ${idOf(n)}, ${START}::timestamptz + n * interval '1 minute'
      from generate_series(2, ${accounts}, 2) as n
    ) as bought`);
  // As autovacuum would leave them: statistics for the planner, pages marked all-visible.
  await db.execute(sql`vacuum analyze users, invite_rewards, orders`);
}
