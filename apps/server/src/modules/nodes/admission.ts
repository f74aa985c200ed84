import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import type { NodeRow } from '../../db/schema/index.ts';

/*
 * The rule for which slots a node admits, in its two forms: `mayUseNode` for the subscription links
 * (over the cached endpoints), `admitted` in SQL for the node API and UniProxy (over 100,000 slots);
 * the node API's tests check the two agree. Nowhere else decides it.
 */

/**
 * Whether an account may use a node: the node takes every plan or the plan of the account's latest
 * paid order, and the account has at least the node's fewest connections in force. The subscription
 * links list only such nodes, and such nodes alone let the account's credentials in.
 */
export function mayUseNode(
  node: { periods: string[] | null; minConnections: number },
  access: { period: string | null; connections: number },
): boolean {
  return (
    node.minConnections <= access.connections &&
    (node.periods === null || (access.period !== null && node.periods.includes(access.period)))
  );
}

/** A slot's credential, as every inbound of a node takes it. */
export interface SlotCredential {
  id: string;
  credential: string;
  secret: string;
  /** Source addresses refused: another device holds the slot. */
  refused: string[];
  /** When the account's access ends. */
  expires_at: Date | string | null;
}

/**
 * Whether a slot's credential may connect to the node now, in SQL: the rule of the subscription links
 * (`usableSlots` in access/slots.ts, `mayUseNode` above), so that a node is handed
 * 100,000 credentials without reading every account into the process. The slot is active and within
 * the connections its account has now (none when revoked or expired; a downgrade's once it is due),
 * and those are at least the node's fewest; a node for some plans only takes the plan of the
 * account's latest paid order (`plan`). Time is compared in whole seconds, as the rule's arithmetic
 * does: an access ending within the current second has ended. Reads `s` (the slot) and `users` (its
 * account); null counts as no.
 */
function admitted(node: NodeRow, now: Date, plan: SQL): SQL {
  // Whole seconds: t is after the current second iff t >= its end, and due within it iff t < its end.
  const secondEnd = new Date((Math.floor(now.getTime() / 1000) + 1) * 1000);
  const connections = sql`case when users.revoked_at is null and users.expire_at >= ${secondEnd} then
      case when users.pending_connections is not null
        and (users.pending_from is null or users.pending_from < ${secondEnd})
      then users.pending_connections else users.connections end
    else 0 end`;
  const plans =
    node.periods === null
      ? sql`true`
      : node.periods.length === 0
        ? sql`false`
        : sql`${plan} in (${sql.join(
            node.periods.map((period) => sql`${period}`),
            sql`, `,
          )})`;
  return sql`(s.active and greatest(s.position, ${node.minConnections}) <= ${connections} and ${plans})`;
}

/**
 * The credentials the node admits now: every active slot the rule lets in. One pass over the slots and
 * the accounts, joined by hash; for a node that takes some plans only, the latest paid plan of every
 * account is read from the paid orders in one pass too (looked up once per slot, 100,000 lookups cost
 * PostgreSQL more, and made the plan costly enough to be JIT-compiled).
 */
export async function admittedCredentials(db: Database, node: NodeRow, now: Date): Promise<SlotCredential[]> {
  const plans =
    node.periods === null
      ? sql``
      : sql`left join (select distinct on (user_id) user_id, period from orders
          where status = 'paid' order by user_id, created_at desc) plans on plans.user_id = users.id`;
  const result = await db.execute(sql`
    select s.id, s.credential, s.secret, s.refused_addresses as refused, users.expire_at as expires_at
    from device_slots s
    join users on users.id = s.user_id
    ${plans}
    where ${admitted(node, now, sql`plans.period`)}`);
  return rowsOf<SlotCredential>(result);
}

/**
 * Each slot's account as the rule reads it (named `users`), looked up by its key: for a few slots
 * among many, or a list of them (the `limit` keeps PostgreSQL from flattening the lateral subquery
 * into a join, which it answers by reading every account), with its latest paid plan
 * (`orders_user_idx`) when the node takes some plans only. Reads `s` (the slot).
 */
function accountOfSlot(node: NodeRow): SQL {
  const plan =
    node.periods === null
      ? sql`null::text`
      : sql`(select paid.period from orders paid where paid.user_id = account.id and paid.status = 'paid'
          order by paid.created_at desc limit 1)`;
  return sql`cross join lateral (
      select account.revoked_at, account.expire_at, account.connections, account.pending_connections,
        account.pending_from, ${plan} as plan
      from users account where account.id = s.user_id limit 1
    ) users`;
}

/**
 * The slots changed since a revision (`device_slots_revision_idx`), each with whether the node admits
 * it now.
 */
export async function changedCredentials(
  db: Database,
  node: NodeRow,
  since: number,
  now: Date,
): Promise<(SlotCredential & { admitted: boolean })[]> {
  const result = await db.execute(sql`
    select s.id, s.credential, s.secret, s.refused_addresses as refused, users.expire_at as expires_at,
      coalesce(${admitted(node, now, sql`users.plan`)}, false) as admitted
    from device_slots s
    ${accountOfSlot(node)}
    where s.revision > ${since}`);
  return rowsOf<SlotCredential & { admitted: boolean }>(result);
}

/**
 * Of these slots, those the node admits at one of these moments (a report's window: its start or its
 * end): what a node may report traffic or sightings for. One statement however many slots (a list as
 * one JSON parameter); ids of no slot are not admitted.
 */
export async function admittedAmong(
  db: Database,
  node: NodeRow,
  ids: readonly string[],
  moments: readonly Date[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const result = await db.execute(sql`
    select s.id
    from jsonb_array_elements_text(${JSON.stringify([...new Set(ids)])}::jsonb) listed
    join device_slots s on s.id = listed.value::uuid
    ${accountOfSlot(node)}
    where ${sql.join(
      moments.map((at) => admitted(node, at, sql`users.plan`)),
      sql` or `,
    )}`);
  return new Set(rowsOf<{ id: string }>(result).map((row) => row.id));
}
