import type { z } from 'zod';
import type { deviceBindSchema, deviceListSchema, deviceSchema } from './schemas/devices.ts';

/** The platforms a device slot may be marked with (its guide and import buttons follow it). */
export const DEVICE_PLATFORMS = ['ios', 'android', 'windows', 'macos', 'linux', 'other'] as const;
export type DevicePlatform = (typeof DEVICE_PLATFORMS)[number];
export const DEVICE_NAME_MAX = 32;

export type Device = z.infer<typeof deviceSchema>;
export type DeviceList = z.infer<typeof deviceListSchema>;
export type DeviceBinding = z.infer<typeof deviceBindSchema>;
