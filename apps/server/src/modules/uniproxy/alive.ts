import { AppError } from '../../http/errors.ts';

/** How long an address reported live counts (Xboard's `DeviceStateService::TTL`). */
export const ALIVE_TTL_MS = 5 * 60_000;
/** The addresses kept per user and node from one report; more are ignored. */
const MAX_ADDRESSES = 64;
/** The users kept at most; past it a report's new users are ignored until entries expire. */
const MAX_USERS = 200_000;

/**
 * An address as the programs report it: V2bX the address alone, XrayR `address_NODEID`, some with a
 * port (`1.2.3.4:5678`, `[::1]:443`). Counted by the address alone, so one device seen by two nodes
 * is one.
 */
export function addressOf(reported: string): string {
  const bare = reported.replace(/_\d+$/, '');
  const v6 = /^\[(.+)\]:\d+$/.exec(bare);
  if (v6?.[1]) return v6[1];
  const v4 = /^(\d+\.\d+\.\d+\.\d+):\d+$/.exec(bare);
  return v4?.[1] ?? bare;
}

/**
 * The live source addresses the UniProxy programs report (`alive`), kept in this instance's memory
 * only, to answer `alivelist`: per user id, the distinct addresses any node reported within the last
 * five minutes. Like Xboard's `DeviceStateService`: a node's report replaces what that node said before
 * of the users it names. Not stored, and not shared between instances: a program's next report (every
 * minute) fills a restarted or other instance within a minute. Nothing is enforced from it yet.
 */
export class AliveAddresses {
  /** User id → address → the node that reported it and when. */
  private readonly users = new Map<number, Map<string, { node: string; at: number }>>();
  private sweptAt = 0;

  /** A node's `alive` body, `{ "<user id>": ["address", …], … }`: what is not an object is refused. */
  record(node: string, body: unknown, now: number): void {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw new AppError(400, 'body_invalid');
    }
    this.sweep(now);
    for (const [key, value] of Object.entries(body)) {
      if (!/^[1-9]\d{0,15}$/.test(key) || !Array.isArray(value)) continue;
      const id = Number(key);
      let addresses = this.users.get(id);
      if (!addresses) {
        if (this.users.size >= MAX_USERS) continue;
        addresses = new Map();
        this.users.set(id, addresses);
      }
      for (const [address, seen] of addresses) if (seen.node === node) addresses.delete(address);
      for (const reported of value.slice(0, MAX_ADDRESSES)) {
        if (typeof reported === 'string' && reported.length > 0 && reported.length <= 80) {
          addresses.set(addressOf(reported), { node, at: now });
        }
      }
      if (addresses.size === 0) this.users.delete(id);
    }
  }

  /** `alivelist`'s `alive`: per user id, the distinct addresses live now (users with none left out). */
  counts(now: number): Record<string, number> {
    this.sweep(now);
    const alive: Record<string, number> = {};
    for (const [id, addresses] of this.users) {
      let count = 0;
      for (const seen of addresses.values()) if (now - seen.at <= ALIVE_TTL_MS) count += 1;
      if (count > 0) alive[String(id)] = count;
    }
    return alive;
  }

  /** Drops what expired, at most once a minute. */
  private sweep(now: number): void {
    if (now - this.sweptAt < 60_000) return;
    this.sweptAt = now;
    for (const [id, addresses] of this.users) {
      for (const [address, seen] of addresses) if (now - seen.at > ALIVE_TTL_MS) addresses.delete(address);
      if (addresses.size === 0) this.users.delete(id);
    }
  }
}
