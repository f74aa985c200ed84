/** What a slot's credential has sent and received, in bytes. */
export interface SlotUsage {
  upload: number;
  download: number;
}

/** A slot with no traffic. */
export const NO_USAGE: SlotUsage = Object.freeze({ upload: 0, download: 0 });

/**
 * Each slot's usage in its account's current period, for the console, the back office and the
 * `subscription-userinfo` header. Nodes do not report traffic yet (the node API and its traffic ledger
 * come next); until they do, no slot has moved a byte, and this is the one place that says so.
 */
export function usageThisPeriod(slotIds: readonly string[]): Promise<Map<string, SlotUsage>> {
  return Promise.resolve(new Map(slotIds.map((id) => [id, NO_USAGE])));
}
