/**
 * What a node's line could carry in a report's window (docs/decisions/node-api.md, "Reports a node
 * may send"). The window is the time the report covers that no earlier report of the node did: from its
 * start, or the end of the node's latest report's window when that is later, to its end (both as
 * received: the end no later than our clock). A first report's window is its own. A window counts at
 * most an hour (an agent reports every minute; a longer one is a node that kept its counters while
 * it could not report, and bytes past an hour of its line are not believed), plus a little slack for
 * whole-second clocks and counters read a moment late.
 */

/** The longest window a report is believed for. */
export const MAX_WINDOW_SECONDS = 3_600;
/** Added to every window: clocks in whole seconds, counters read a moment after the window ended. */
const SLACK_SECONDS = 2;
/** Bytes per second per Mbit/s. */
const BYTES_PER_MBIT = 125_000;

/** The window a report is judged on, in seconds. */
export function reportWindowSeconds(from: Date, to: Date, reportedUntil: Date | null): number {
  const start = Math.max(from.getTime(), reportedUntil?.getTime() ?? 0);
  const seconds = Math.max(0, (to.getTime() - start) / 1_000);
  return Math.min(seconds, MAX_WINDOW_SECONDS) + SLACK_SECONDS;
}

/** The bytes a line of `lineMbps` carries each way in `seconds`. */
export const lineBytes = (lineMbps: number, seconds: number) =>
  Math.floor(lineMbps * BYTES_PER_MBIT * seconds);
