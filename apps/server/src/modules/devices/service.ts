import type { z } from 'zod';
import type { deviceBindSchema, deviceListSchema, deviceSchema } from '@skyway/shared/schemas/devices';
import { toUnixSeconds } from '@skyway/shared/dates';
import type { Database } from '../../db/client.ts';
import type { DeviceSlotRow } from '../../db/schema/index.ts';
import { AppError } from '../../http/errors.ts';
import { inAccountTransaction } from '../access/access.ts';
import { newCredential, reconcileSlots, usableSlots } from '../access/slots.ts';
import { type InUseElsewhere, slotsInUseElsewhere } from '../presence/service.ts';
import { NO_USAGE, type SlotUsage, usageThisPeriod } from '../traffic/usage.ts';
import {
  bindSlot,
  listSlots,
  renameSlot,
  reorderSlots,
  replaceCredential,
  storeTokenHash,
} from './repository.ts';
import { hashToken } from '../../lib/token-hash.ts';
import { subscriptionToken } from './tokens.ts';

export interface DevicesDeps {
  db: Database;
  subscriptionKey: string;
  /** How often the nodes send their live addresses (one device per slot). */
  onlineIntervalSeconds: number;
}

/** Where a slot's apps fetch its subscription. */
export const subscriptionUrl = (origin: string, token: string) => `${origin}/s/${token}`;

/** What the console shows of slots beyond their rows: usage this period, and another device holding them. */
interface SlotFacts {
  usage: ReadonlyMap<string, SlotUsage>;
  inUse: ReadonlyMap<string, InUseElsewhere>;
}

async function slotFacts(
  deps: DevicesDeps,
  db: Database,
  slots: readonly DeviceSlotRow[],
  now: Date,
): Promise<SlotFacts> {
  const usage = await usageThisPeriod(
    db,
    slots.map((slot) => slot.id),
    now,
  );
  return { usage, inUse: await slotsInUseElsewhere(db, slots, now, deps.onlineIntervalSeconds) };
}

function present(
  deps: DevicesDeps,
  origin: string,
  slot: DeviceSlotRow,
  facts: SlotFacts,
): z.infer<typeof deviceSchema> {
  const { upload, download } = facts.usage.get(slot.id) ?? NO_USAGE;
  return {
    id: slot.id,
    position: slot.position,
    name: slot.name,
    platform: slot.platform as z.infer<typeof deviceSchema>['platform'],
    active: slot.active,
    url: subscriptionUrl(origin, subscriptionToken(deps.subscriptionKey, slot)),
    created_at: toUnixSeconds(slot.createdAt),
    last_fetch_at: slot.lastFetchAt ? toUnixSeconds(slot.lastFetchAt) : 0,
    upload,
    download,
    in_use_elsewhere: facts.inUse.get(slot.id) ?? null,
  };
}

/** One slot as the console shows it, with its usage this period. */
async function presentOne(deps: DevicesDeps, db: Database, origin: string, slot: DeviceSlotRow) {
  return present(deps, origin, slot, await slotFacts(deps, db, [slot], new Date()));
}

/** The account's slots with their links (a slot's token hash is written the first time it is shown). */
export async function listDevices(
  deps: DevicesDeps,
  userId: string,
  origin: string,
  now: Date,
): Promise<z.infer<typeof deviceListSchema>> {
  return inAccountTransaction(deps.db, userId, now, async ({ tx, user }) => {
    const slots = await listSlots(tx, userId);
    for (const slot of slots) {
      if (!slot.tokenHash)
        await storeTokenHash(tx, slot.id, hashToken(subscriptionToken(deps.subscriptionKey, slot)));
    }
    const facts = await slotFacts(deps, tx, slots, now);
    return {
      devices: slots.map((slot) => present(deps, origin, slot, facts)),
      usable: usableSlots(user, now),
    };
  });
}

export async function renameDevice(
  deps: DevicesDeps,
  userId: string,
  request: { id: string; name: string; platform?: string; origin: string },
): Promise<z.infer<typeof deviceSchema>> {
  const slot = await renameSlot(deps.db, userId, request.id, request);
  if (!slot) throw new AppError(404, 'not_found');
  return presentOne(deps, deps.db, request.origin, slot);
}

/**
 * A new credential and a new link for a slot, in the account's transaction: the old credential and
 * link stop working at once, and concurrent regenerations leave exactly one of them valid.
 */
export async function regenerateDevice(
  deps: DevicesDeps,
  userId: string,
  request: { id: string; origin: string; now: Date },
): Promise<z.infer<typeof deviceSchema>> {
  return inAccountTransaction(deps.db, userId, request.now, async ({ tx }) => {
    const slot = await replaceCredential(tx, userId, request.id, {
      ...newCredential(),
      tokenHashOf: (tokenVersion) =>
        hashToken(subscriptionToken(deps.subscriptionKey, { id: request.id, tokenVersion })),
    });
    if (!slot) throw new AppError(404, 'not_found');
    // In the account's transaction: on the embedded database another statement would wait for it.
    return presentOne(deps, tx, request.origin, slot);
  });
}

/**
 * The slots the customer keeps when the connections go down: these first, in this order, then the
 * others as they were; the slots beyond the connections stop at once or when the downgrade is due.
 */
export async function keepDevices(
  deps: DevicesDeps,
  userId: string,
  request: { ids: string[]; origin: string; now: Date },
): Promise<z.infer<typeof deviceListSchema>> {
  await inAccountTransaction(deps.db, userId, request.now, async ({ tx, user }) => {
    const slots = await listSlots(tx, userId);
    const known = new Set(slots.map((slot) => slot.id));
    const kept = [...new Set(request.ids)];
    if (kept.some((id) => !known.has(id))) throw new AppError(404, 'not_found');
    const order = [...kept, ...slots.map((slot) => slot.id).filter((id) => !kept.includes(id))];
    await reorderSlots(tx, userId, order);
    await reconcileSlots(tx, user, request.now);
  });
  return listDevices(deps, userId, request.origin, request.now);
}

/**
 * Our own apps' set-up: the slot this device (`x-hwid`) is bound to, else the first active slot no
 * device holds, bound to it now, in the account's transaction (two devices never get one slot).
 * When every active slot is held by another device, none, and the slots that are taken.
 */
export async function bindDevice(
  deps: DevicesDeps,
  userId: string,
  request: { hwid: string; origin: string; now: Date },
): Promise<z.infer<typeof deviceBindSchema>> {
  const bound = await inAccountTransaction(deps.db, userId, request.now, async ({ tx }) => {
    const slots = await listSlots(tx, userId);
    const mine = slots.find((slot) => slot.hwid === request.hwid);
    if (mine) return { slot: mine, slots };
    const free = slots.find((slot) => slot.active && slot.hwid === null);
    return { slot: free && (await bindSlot(tx, free.id, request.hwid)), slots };
  });
  if (bound.slot) {
    const listed = await listDevices(deps, userId, request.origin, request.now);
    return { device: listed.devices.find((device) => device.id === bound.slot?.id) ?? null, taken: [] };
  }
  return {
    device: null,
    taken: bound.slots
      .filter((slot) => slot.active)
      .map((slot) => ({
        id: slot.id,
        position: slot.position,
        name: slot.name,
        platform: slot.platform as z.infer<typeof deviceSchema>['platform'],
        last_fetch_at: slot.lastFetchAt ? toUnixSeconds(slot.lastFetchAt) : 0,
      })),
  };
}
