import type { CoreDriver, CoreUser, NodeCredential, Refusals } from '../core/driver.ts';
import type { Logger } from '../log.ts';
import type { NodeCredentials } from '../panel/panel-client.ts';

/** How long a removed credential's email still names it, for bytes its last connections move. */
const RETIRED_FOR_MS = 60 * 60 * 1_000;

const toCoreUser = ({ email, uuid, password }: NodeCredential): CoreUser => ({ email, uuid, password });
const sameUser = (a: CoreUser, b: CoreUser) =>
  a.email === b.email && a.uuid === b.uuid && a.password === b.password;

export interface ReconcileResult {
  added: number;
  removed: number;
  failed: number;
}

/** Whether the credential's access has ended by the node's clock. */
const ended = (credential: NodeCredential, now: number) =>
  credential.expires_at !== null && credential.expires_at * 1_000 <= now;

const sameRefusals = (a: Refusals, b: Refusals) =>
  a.size === b.size && [...a].every(([email, addresses]) => b.get(email)?.join() === addresses.join());

/**
 * The panel's credentials as the node holds them (`desired`, with the revision they are at) and the
 * users the core has now (`inCore`). Deltas change `desired`; `reconcile` makes the core equal to it
 * through the driver, so a call that failed is simply tried again on the next reconcile.
 */
export class CredentialBook {
  private desired = new Map<string, NodeCredential>();
  private inCore = new Map<string, CoreUser>();
  private refusalsInCore: Refusals = new Map();
  private owners = new Map<string, { id: string; retiredAt?: number }>();
  revision = 0;

  constructor(private readonly log: Logger) {}

  /** The credentials as a list, and the revision (for the on-disk cache). */
  snapshot(): { revision: number; credentials: NodeCredential[] } {
    return { revision: this.revision, credentials: [...this.desired.values()] };
  }

  restore(snapshot: { revision: number; credentials: NodeCredential[] }): void {
    this.apply({ revision: snapshot.revision, full: true, upsert: snapshot.credentials, remove: [] });
  }

  get size(): number {
    return this.desired.size;
  }

  /** The users the core should have now: the credentials whose access has not ended. */
  users(now = Date.now()): CoreUser[] {
    return [...this.desired.values()].filter((credential) => !ended(credential, now)).map(toCoreUser);
  }

  /** When the next credential the core holds comes to its end (milliseconds), to drop it then. */
  nextExpiry(now = Date.now()): number | undefined {
    let next: number | undefined;
    for (const credential of this.desired.values()) {
      if (credential.expires_at === null || ended(credential, now)) continue;
      const at = credential.expires_at * 1_000;
      if (next === undefined || at < next) next = at;
    }
    return next;
  }

  /** The addresses each user must be refused from (one device per slot), as the panel wants them. */
  refusals(): Map<string, string[]> {
    const refusals = new Map<string, string[]>();
    for (const credential of this.desired.values()) {
      if (credential.refused.length > 0 && !ended(credential, Date.now()))
        refusals.set(credential.email, [...credential.refused].sort());
    }
    return refusals;
  }

  /** Whether the core refuses other addresses than the panel wants. */
  refusalsDiffer(): boolean {
    return !sameRefusals(this.refusals(), this.refusalsInCore);
  }

  /** The credential id an email in the core's counters stands for (a recently removed one too). */
  idForEmail(email: string): string | undefined {
    return this.owners.get(email)?.id;
  }

  /** Takes the panel's answer: a delta on top of what is held, or (`full`) the whole list. */
  apply(credentials: NodeCredentials): void {
    const now = Date.now();
    const retire = (credential: NodeCredential) => {
      this.desired.delete(credential.id);
      const owner = this.owners.get(credential.email);
      if (owner?.id === credential.id) owner.retiredAt = now;
    };
    if (credentials.full) {
      const kept = new Set(credentials.upsert.map((credential) => credential.id));
      for (const credential of [...this.desired.values()]) if (!kept.has(credential.id)) retire(credential);
    }
    for (const id of credentials.remove) {
      const credential = this.desired.get(id);
      if (credential) retire(credential);
    }
    for (const credential of credentials.upsert) {
      const before = this.desired.get(credential.id);
      if (before && before.email !== credential.email) retire(before);
      this.desired.set(credential.id, credential);
      this.owners.set(credential.email, { id: credential.id });
    }
    for (const [email, owner] of this.owners) {
      if (owner.retiredAt !== undefined && now - owner.retiredAt > RETIRED_FOR_MS) this.owners.delete(email);
    }
    this.revision = credentials.revision;
  }

  /** The core was (re)started holding exactly these users and refusals. */
  coreHolds(users: readonly CoreUser[], refusals: Refusals = new Map()): void {
    this.inCore = new Map(users.map((user) => [user.email, user]));
    this.refusalsInCore = refusals;
  }

  /**
   * Makes the core's users equal to the desired credentials: removes first, then adds; then, on a
   * core that takes them while it runs, the refusals (the agent restarts any other core for them).
   */
  async reconcile(driver: CoreDriver): Promise<ReconcileResult> {
    const result: ReconcileResult = { added: 0, removed: 0, failed: 0 };
    if (!driver.running) return result;
    const wanted = new Map(this.users().map((user) => [user.email, user]));
    for (const [email, user] of [...this.inCore]) {
      const target = wanted.get(email);
      if (target && sameUser(target, user)) continue;
      try {
        await driver.removeUser(email);
        this.inCore.delete(email);
        result.removed += 1;
      } catch (error) {
        result.failed += 1;
        this.log.warn('cannot remove a user from the core', { email, error });
      }
    }
    for (const [email, user] of wanted) {
      if (this.inCore.has(email)) continue;
      try {
        await driver.addUser(user).catch(async (error: unknown) => {
          // Half added before (one inbound took it, another failed): clear it and add it whole.
          if (!/already exists/i.test((error as Error).message)) throw error;
          await driver.removeUser(email);
          await driver.addUser(user);
        });
        this.inCore.set(email, user);
        result.added += 1;
      } catch (error) {
        result.failed += 1;
        this.log.warn('cannot add a user to the core', { email, error });
      }
    }
    if (driver.liveRefusals && this.refusalsDiffer()) {
      const refusals = this.refusals();
      try {
        await driver.setRefusals(refusals);
        this.refusalsInCore = refusals;
      } catch (error) {
        result.failed += 1;
        this.log.warn('cannot change the refused addresses', { error });
      }
    }
    return result;
  }
}
