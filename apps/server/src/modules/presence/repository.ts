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
  const slotIds = [...new Set(seen.map((entry) => entry.slotId))];
  await db
    .delete(slotAddresses)
    .where(
      and(
        inArray(slotAddresses.slotId, slotIds),
        sql`${slotAddresses.lastSeenAt} < ${new Date(now.getTime() - FORGET_AFTER_MS)}`,
      ),
    );
  await db.execute(sql`
    insert into ${slotAddresses} (slot_id, address, country, first_seen_at, last_seen_at)
    select seen.slot_id, seen.address, seen.country, ${now}, ${now}
    from jsonb_to_recordset(${JSON.stringify(
      seen.map((entry) => ({ slot_id: entry.slotId, address: entry.address, country: entry.country })),
    )}::jsonb) as seen(slot_id uuid, address text, country text)
    join ${deviceSlots} on ${deviceSlots.id} = seen.slot_id
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
  address: string;
  country: string | null;
  first_seen_at: Date | string;
  last_seen_at: Date | string;
}

/**
 * Of these slots, those live from more than one address or refusing some now (the others need no
 * judgement), with their live addresses.
 */
export async function contestedSlots(
  db: Database,
  slotIds: readonly string[],
  liveSince: Date,
): Promise<SlotPresence[]> {
  if (slotIds.length === 0) return [];
  const ids = sql`array[${sql.join(
    slotIds.map((id) => sql`${id}`),
    sql`, `,
  )}]::uuid[]`;
  const result = await db.execute(sql`
    with live as (
      select slot_id, address, country, first_seen_at, last_seen_at from ${slotAddresses}
      where slot_id = any(${ids}) and last_seen_at >= ${liveSince}
    ), judged as (
      select s.id, s.refused_addresses from ${deviceSlots} s
      where s.id = any(${ids})
        and (cardinality(s.refused_addresses) > 0
          or (select count(*) from live where live.slot_id = s.id) > 1)
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
 * Gives each slot its refused addresses, with a new revision so that every node pulls the change;
 * `refused_since` keeps when the refusing began.
 */
export async function storeRefusals(
  db: Database,
  changes: readonly { slotId: string; refused: string[] }[],
  now: Date,
): Promise<void> {
  if (changes.length === 0) return;
  await db.transaction(async (tx) => {
    await holdRevisions(tx);
    for (const change of changes) {
      const refusing = change.refused.length > 0;
      await tx
        .update(deviceSlots)
        .set({
          refusedAddresses: change.refused,
          refusedSince: refusing ? sql`coalesce(${deviceSlots.refusedSince}, ${now})` : null,
          revision: nextRevision,
        })
        .where(sql`${deviceSlots.id} = ${change.slotId}`);
    }
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
