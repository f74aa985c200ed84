import { toUnixSeconds } from '@skyway/shared/dates';
import type { Database } from '../../db/client.ts';
import type { DeviceSlotRow } from '../../db/schema/index.ts';
import { readSettings } from '../settings/repository.ts';
import { countryOf, normalAddress } from './countries.ts';
import {
  contestedSlots,
  refusingSlotsSightings,
  type SeenAddress,
  recordSightings,
  storeRefusals,
} from './repository.ts';
import { holderOf, liveWindowMs, type PresencePolicy, slotVerdict } from './rules.ts';

/** The rule in force: the operator's grace window, and the liveness window of the nodes' interval. */
export async function presencePolicy(db: Database, onlineIntervalSeconds: number): Promise<PresencePolicy> {
  const { device_grace_seconds } = await readSettings(db);
  return { graceMs: device_grace_seconds * 1_000, liveMs: liveWindowMs(onlineIntervalSeconds) };
}

const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((value, index) => value === b[index]);

/**
 * A node's live source addresses per credential: recorded, then every slot they concern that is live
 * from several addresses, or refusing some, is judged again; a slot whose refusals change takes a new
 * revision, so every node is told within seconds. Addresses that are not IP addresses are ignored.
 */
export async function receiveSightings(
  db: Database,
  reported: readonly { id: string; ips: readonly string[] }[],
  now: Date,
  policy: PresencePolicy,
): Promise<void> {
  const seen = new Map<string, SeenAddress>();
  for (const entry of reported) {
    for (const text of entry.ips) {
      const address = normalAddress(text);
      if (address) {
        seen.set(`${entry.id} ${address}`, {
          slotId: entry.id,
          address,
          country: countryOf(address) ?? null,
        });
      }
    }
  }
  if (seen.size === 0) return;
  const liveSince = new Date(now.getTime() - policy.liveMs);
  await recordSightings(db, [...seen.values()], now, liveSince);
  const changes = [];
  for (const slot of await contestedSlots(db, [...seen.values()], liveSince)) {
    const { refused } = slotVerdict(slot.sightings, now, policy);
    if (!sameList(refused, [...slot.refused].sort())) changes.push({ slotId: slot.slotId, refused });
  }
  await storeRefusals(db, changes, now);
}

export interface InUseElsewhere {
  country: string | null;
  refused_at: number;
}

/**
 * For the console: the slots whose link is in use on one device while another is being refused,
 * with the holder's country and since when. A refusal whose holder is no longer live is over (the
 * next sighting of the refused device lifts it), so it is not shown.
 */
export async function slotsInUseElsewhere(
  db: Database,
  slots: readonly DeviceSlotRow[],
  now: Date,
  onlineIntervalSeconds: number,
): Promise<Map<string, InUseElsewhere>> {
  const liveMs = liveWindowMs(onlineIntervalSeconds);
  const refusing = slots.filter((slot) => slot.refusedAddresses.length > 0 && slot.refusedSince);
  const shown = new Map<string, InUseElsewhere>();
  if (refusing.length === 0) return shown;
  const sightings = await refusingSlotsSightings(
    db,
    refusing.map((slot) => slot.id),
    new Date(now.getTime() - liveMs),
  );
  for (const slot of refusing) {
    const holder = holderOf(sightings.get(slot.id) ?? [], now, liveMs);
    if (holder && slot.refusedSince && !slot.refusedAddresses.includes(holder.address)) {
      shown.set(slot.id, { country: holder.country, refused_at: toUnixSeconds(slot.refusedSince) });
    }
  }
  return shown;
}
