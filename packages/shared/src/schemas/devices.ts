import { z } from 'zod';
import { DEVICE_NAME_MAX, DEVICE_PLATFORMS } from '../devices.ts';

/** One slot: a paid connection, with its own credential and subscription link. */
export const deviceSchema = z.object({
  id: z.uuid(),
  /** 1 … N: when the connections go down, the lowest positions are kept. */
  position: z.number().int(),
  /** Null until the customer names it (the console shows "Device N"). */
  name: z.string().nullable(),
  platform: z.enum(DEVICE_PLATFORMS).nullable(),
  /** False while the account's access does not cover it (expired, or beyond its connections). */
  active: z.boolean(),
  /** The slot's subscription link, which its apps import. */
  url: z.string(),
  /** Unix seconds. */
  created_at: z.number().int(),
  /** When an app last fetched the link, unix seconds; 0 = never. */
  last_fetch_at: z.number().int(),
  /** Bytes the slot's credential sent and received in the access's current period. */
  upload: z.number().int().nonnegative(),
  download: z.number().int().nonnegative(),
  /**
   * Set while the link is in use on another device and a second one is being turned away (one
   * device per slot): the country of the device that holds it (ISO 3166 code; null when its address
   * has none, such as a private network), and since when, unix seconds.
   */
  in_use_elsewhere: z.object({ country: z.string().nullable(), refused_at: z.number().int() }).nullable(),
});

/** Reply of `/web/device/list`: the slots, and how many the access covers now. */
export const deviceListSchema = z.object({
  devices: z.array(deviceSchema),
  usable: z.number().int(),
});

const slotId = z.object({ id: z.uuid() });
export const deviceRenameRequest = slotId.extend({
  name: z.string().trim().min(1).max(DEVICE_NAME_MAX),
  platform: z.enum(DEVICE_PLATFORMS).optional(),
});
/** A new credential and link for a slot: the old ones stop working at once. */
export const deviceRegenerateRequest = slotId;
/** The slots to keep, in order, when the connections go down (the rest come after them). */
export const deviceKeepRequest = z.object({ ids: z.array(z.uuid()).min(1).max(1000) });

/** The header our own apps identify the device with (as the comparable apps send it). */
export const HWID_HEADER = 'x-hwid';
export const HWID_MAX = 128;

/**
 * Reply of `/web/device/bind`: the slot this device is bound to (bound now, or before), or, when
 * every slot of the access is taken by another device, null and the slots that are.
 */
export const deviceBindSchema = z.object({
  device: deviceSchema.nullable(),
  taken: z.array(
    deviceSchema.pick({ id: true, position: true, name: true, platform: true, last_fetch_at: true }),
  ),
});
