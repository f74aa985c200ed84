import type { UserTraffic } from './driver.ts';
import type { Stat } from './grpc-api.ts';

/**
 * The cores' counter names: `user>>>EMAIL>>>traffic>>>uplink|downlink` (bytes), and Xray's online
 * maps `user>>>EMAIL>>>online`. An email may itself hold `>>>`, so it is whatever lies between the
 * first and the known suffix.
 */
const TRAFFIC = /^user>>>(.+)>>>traffic>>>(uplink|downlink)$/;
const ONLINE = /^user>>>(.+)>>>online$/;

export function trafficByEmail(stats: readonly Stat[]): Map<string, UserTraffic> {
  const traffic = new Map<string, UserTraffic>();
  for (const stat of stats) {
    const match = TRAFFIC.exec(stat.name);
    if (!match?.[1] || !(stat.value > 0)) continue;
    const entry = traffic.get(match[1]) ?? { upload: 0, download: 0 };
    if (match[2] === 'uplink') entry.upload += stat.value;
    else entry.download += stat.value;
    traffic.set(match[1], entry);
  }
  return traffic;
}

export function onlineAddresses(entries: readonly (readonly [string, string[]])[]): Map<string, string[]> {
  const addresses = new Map<string, string[]>();
  for (const [name, ips] of entries) {
    const email = ONLINE.exec(name)?.[1];
    if (email && ips.length > 0) addresses.set(email, ips);
  }
  return addresses;
}
