/**
 * One device per slot (PRODUCT.md section 6): a slot's credential is held by the source address that
 * has been live the longest; a newer address may share it for the grace window (a phone moving from
 * Wi-Fi to mobile data keeps its old connections a while), and is refused once the holder is still
 * seen that long after the newer one appeared. When the holder is gone (unseen for the liveness
 * window), the oldest address still live holds the slot and nothing is refused.
 */

/** A source address a slot's credential was seen from: its current run of sightings. */
export interface Sighting {
  address: string;
  firstSeenAt: Date;
  lastSeenAt: Date;
}

export interface PresencePolicy {
  /** How long a newer address may share the slot with the holder (the operator's setting). */
  graceMs: number;
  /** How long an address counts as live after it was last seen. */
  liveMs: number;
}

/**
 * How long an address counts as live after a sighting: nodes send their live addresses every
 * `intervalSeconds`, so two sightings may go missing (a slow node, a lost request) before it is gone.
 */
export const liveWindowMs = (intervalSeconds: number) => (3 * intervalSeconds + 2) * 1_000;

export interface Verdict<T extends Sighting> {
  /** The address holding the slot; undefined when none is live. */
  holder: T | undefined;
  /** The live addresses the nodes must refuse, sorted. */
  refused: string[];
}

const earlier = (a: Sighting, b: Sighting) =>
  a.firstSeenAt.getTime() - b.firstSeenAt.getTime() || a.address.localeCompare(b.address);

/** The live addresses, oldest run first: the first holds the slot. */
function liveByAge<T extends Sighting>(sightings: readonly T[], now: Date, liveMs: number): T[] {
  const liveSince = now.getTime() - liveMs;
  return sightings.filter((sighting) => sighting.lastSeenAt.getTime() >= liveSince).sort(earlier);
}

/** The address holding a slot now; undefined when none is live. */
export const holderOf = <T extends Sighting>(sightings: readonly T[], now: Date, liveMs: number) =>
  liveByAge(sightings, now, liveMs)[0];

/** Who holds a slot and whom its nodes refuse, from where its credential was seen. */
export function slotVerdict<T extends Sighting>(
  sightings: readonly T[],
  now: Date,
  policy: PresencePolicy,
): Verdict<T> {
  const [holder, ...newer] = liveByAge(sightings, now, policy.liveMs);
  if (!holder) return { holder: undefined, refused: [] };
  const refused = newer
    .filter((sighting) => holder.lastSeenAt.getTime() - sighting.firstSeenAt.getTime() >= policy.graceMs)
    .map((sighting) => sighting.address)
    .sort();
  return { holder, refused };
}
