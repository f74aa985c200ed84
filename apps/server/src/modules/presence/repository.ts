import { and, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { deviceSlots, slotAddresses } from '../../db/schema/index.ts';
import { holdRevisions, nextRevision } from '../access/revisions.ts';
import type { Sighting } from './rules.ts';

/** A slot's credential seen live from an address now. */
export interface SeenAddress {
  slotId: string;
  address: string;
  country: string | null;
}

/** The distinct slot ids, as one JSON parameter (10,000 ids are one value, not 10,000). */
const slotIdsJson = (entries: readonly { slotId: string }[]) =>
  JSON.stringify([...new Set(entries.map((entry) => entry.slotId))]);

/** Addresses a slot was last seen from longer ago than this are forgotten when it is seen again. */
const FORGET_AFTER_MS = 24 * 60 * 60 * 1_000;

/**
 * Records sightings at `now`: an address seen within the liveness window continues its run (its
 * first sighting stays), one unseen longer starts a new run. Slots that do not exist (a node's stale
 * list) are skipped; the slots' addresses unseen for a day are forgotten, so the table holds about a
 * day of addresses per slot.
 */
export async function recordSightings(
  db: Database,
  seen: readonly SeenAddress[],
  now: Date,
  liveSince: Date,
): Promise<void> {
  if (seen.length === 0) return;
  await db.execute(sql`
    delete from ${slotAddresses} a
    using (select distinct value::uuid as slot_id from jsonb_array_elements_text(${slotIdsJson(seen)}::jsonb)) seen
    where a.slot_id = seen.slot_id and a.last_seen_at < ${new Date(now.getTime() - FORGET_AFTER_MS)}`);
  // In key order, so that two nodes reporting the same slots at once lock their rows in one order.
  await db.execute(sql`
    insert into ${slotAddresses} (slot_id, address, country, first_seen_at, last_seen_at)
    select seen.slot_id, seen.address, seen.country, ${now}, ${now}
    from jsonb_to_recordset(${JSON.stringify(
      seen.map((entry) => ({ slot_id: entry.slotId, address: entry.address, country: entry.country })),
    )}::jsonb) as seen(slot_id uuid, address text, country text)
    join ${deviceSlots} on ${deviceSlots.id} = seen.slot_id
    order by seen.slot_id, seen.address
    on conflict (slot_id, address) do update set
      first_seen_at = case when ${slotAddresses.lastSeenAt} < ${liveSince}
        then excluded.first_seen_at else ${slotAddresses.firstSeenAt} end,
      last_seen_at = greatest(${slotAddresses.lastSeenAt}, excluded.last_seen_at)`);
}

/** A slot worth judging: where it is live from, and whom its nodes refuse now. */
export interface SlotPresence {
  slotId: string;
  refused: string[];
  sightings: (Sighting & { country: string | null })[];
}

interface PresenceRow {
  slot_id: string;
  refused_addresses: string[];
  address: string | null;
  country: string | null;
  first_seen_at: Date | string;
  last_seen_at: Date | string;
}

/**
 * Of the slots seen, those live from more than one address or refusing some now (the others need
 * no judgement), with their live addresses. One pass over the seen slots' addresses (by key).
 */
export async function contestedSlots(
  db: Database,
  seen: readonly { slotId: string }[],
  liveSince: Date,
): Promise<SlotPresence[]> {
  if (seen.length === 0) return [];
  const result = await db.execute(sql`
    with ids as (
      select distinct value::uuid as id from jsonb_array_elements_text(${slotIdsJson(seen)}::jsonb)
    ), live as (
      select a.slot_id, a.address, a.country, a.first_seen_at, a.last_seen_at
      from ${slotAddresses} a join ids on a.slot_id = ids.id
      where a.last_seen_at >= ${liveSince}
    ), shared as (
      select slot_id from live group by slot_id having count(*) > 1
    ), judged as (
      select s.id, s.refused_addresses from ${deviceSlots} s join ids on s.id = ids.id
      where cardinality(s.refused_addresses) > 0 or s.id in (select slot_id from shared)
    )
    select judged.id as slot_id, judged.refused_addresses, live.address, live.country,
      live.first_seen_at, live.last_seen_at
    from judged left join live on live.slot_id = judged.id`);
  const slots = new Map<string, SlotPresence>();
  for (const row of rowsOf<PresenceRow>(result)) {
    let slot = slots.get(row.slot_id);
    if (!slot) {
      slot = { slotId: row.slot_id, refused: row.refused_addresses, sightings: [] };
      slots.set(row.slot_id, slot);
    }
    if (row.address !== null) {
      slot.sightings.push({
        address: row.address,
        country: row.country,
        firstSeenAt: new Date(row.first_seen_at),
        lastSeenAt: new Date(row.last_seen_at),
      });
    }
  }
  return [...slots.values()];
}

/**
 * Gives each slot its refused addresses, in one statement, with a new revision so that every node
 * pulls the change; `refused_since` keeps when the refusing began.
 */
export async function storeRefusals(
  db: Database,
  changes: readonly { slotId: string; refused: string[] }[],
  now: Date,
): Promise<void> {
  if (changes.length === 0) return;
  await db.transaction(async (tx) => {
    await holdRevisions(tx);
    await tx.execute(sql`
      update ${deviceSlots} s set
        refused_addresses = array(select jsonb_array_elements_text(change.refused)),
        refused_since = case when jsonb_array_length(change.refused) > 0
          then coalesce(s.refused_since, ${now}) end,
        revision = ${nextRevision}
      from jsonb_to_recordset(${JSON.stringify(
        changes.map((change) => ({ id: change.slotId, refused: change.refused })),
      )}::jsonb) as change(id uuid, refused jsonb)
      where s.id = change.id`);
  });
}

/** The live addresses of slots that refuse some now, for showing who holds them. */
export async function refusingSlotsSightings(
  db: Database,
  slotIds: readonly string[],
  liveSince: Date,
): Promise<Map<string, (Sighting & { country: string | null })[]>> {
  const bySlot = new Map<string, (Sighting & { country: string | null })[]>();
  if (slotIds.length === 0) return bySlot;
  const rows = await db
    .select()
    .from(slotAddresses)
    .where(
      and(inArray(slotAddresses.slotId, [...slotIds]), sql`${slotAddresses.lastSeenAt} >= ${liveSince}`),
    );
  for (const row of rows) {
    const list = bySlot.get(row.slotId) ?? [];
    list.push({
      address: row.address,
      country: row.country,
      firstSeenAt: row.firstSeenAt,
      lastSeenAt: row.lastSeenAt,
    });
    bySlot.set(row.slotId, list);
  }
  return bySlot;
}
