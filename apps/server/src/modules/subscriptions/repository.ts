import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { preparedStatement } from '../../db/prepared.ts';
import { deviceSlots, orders, subscriptionFetches, users } from '../../db/schema/index.ts';

// Every fetch of a subscription link starts here: built once, planned once per connection.
const slotByToken = preparedStatement((db) =>
  db
    .select({
      slot: {
        id: deviceSlots.id,
        position: deviceSlots.position,
        credential: deviceSlots.credential,
        secret: deviceSlots.secret,
      },
      user: {
        id: users.id,
        language: users.language,
        expireAt: users.expireAt,
        connections: users.connections,
        pendingConnections: users.pendingConnections,
        pendingFrom: users.pendingFrom,
        revokedAt: users.revokedAt,
      },
      // The plan of the account's latest paid order: which nodes it may use.
      period: sql<string | null>`(select ${orders.period} from ${orders}
        where ${orders.userId} = ${users.id} and ${orders.status} = 'paid'
        order by ${orders.createdAt} desc limit 1)`,
    })
    .from(deviceSlots)
    .innerJoin(users, eq(users.id, deviceSlots.userId))
    // By the token's hash, on its unique index: the slot as it is now (a regenerated slot's old
    // token matches nothing from the moment the regeneration commits).
    .where(eq(deviceSlots.tokenHash, sql.placeholder('tokenHash')))
    .prepare('subscription_slot_by_token'),
);

/** The slot of a token's hash, with what its account's access is now, in one round trip. */
export async function slotByTokenHash(db: Database, tokenHash: string) {
  const [row] = await slotByToken(db).execute({ tokenHash });
  return row;
}

export type SlotAccess = NonNullable<Awaited<ReturnType<typeof slotByTokenHash>>>;

/** One fetch of a slot's link, as the log keeps it. */
export interface FetchRecord {
  slotId: string;
  at: Date;
  ip: string;
  userAgent: string | undefined;
  format: string;
}

/**
 * Logs fetches (in their order) and moves their slots' last fetch forward, in one statement (one
 * commit) however many: the rows travel as one JSON parameter, whatever the count of fetches.
 * Fetches of a slot that no longer exists are skipped.
 */
export async function writeFetches(
  db: Database,
  fetches: readonly FetchRecord[],
  lastFetches: ReadonlyMap<string, Date>,
): Promise<void> {
  const logged = JSON.stringify(
    fetches.map((fetch) => ({
      slot_id: fetch.slotId,
      at: fetch.at.toISOString(),
      ip: fetch.ip,
      user_agent: fetch.userAgent?.slice(0, 300) ?? null,
      format: fetch.format,
    })),
  );
  const latest = JSON.stringify([...lastFetches].map(([id, at]) => ({ id, at: at.toISOString() })));
  await db.execute(sql`
    with logged as (
      insert into ${subscriptionFetches} (slot_id, at, ip, user_agent, format)
      select (f.value->>'slot_id')::uuid, (f.value->>'at')::timestamptz, f.value->>'ip',
        f.value->>'user_agent', f.value->>'format'
      from jsonb_array_elements(${logged}::jsonb) with ordinality as f(value, n)
      where exists (select from ${deviceSlots} where ${deviceSlots.id} = (f.value->>'slot_id')::uuid)
      -- In the order they were served: the log's ids follow the fetches.
      order by f.n
    )
    update ${deviceSlots} set last_fetch_at = l.at
    from jsonb_to_recordset(${latest}::jsonb) as l(id uuid, at timestamptz)
    where ${deviceSlots.id} = l.id
      and (${deviceSlots.lastFetchAt} is null or ${deviceSlots.lastFetchAt} < l.at)`);
}
