import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Device, DeviceList, DevicePlatform } from '@skyway/shared/devices';
import { callApi } from '../../../lib/api-client.ts';

export const DEVICES_QUERY_KEY = ['devices'] as const;

/** The account's device slots, each with its subscription link. */
export function fetchDevices(): Promise<DeviceList> {
  return callApi<DeviceList>('/web/device/list');
}

export function renameDevice(request: {
  id: string;
  name: string;
  platform: DevicePlatform;
}): Promise<Device> {
  return callApi<Device>('/web/device/rename', request);
}

/** A new credential and link for the slot: the old ones stop working at once. */
export function regenerateDevice(id: string): Promise<Device> {
  return callApi<Device>('/web/device/regenerate', { id });
}

/** The slots to keep, in order, when the connections go down. */
export function keepDevices(ids: string[]): Promise<DeviceList> {
  return callApi<DeviceList>('/web/device/keep', { ids });
}

export function useDevices() {
  return useQuery({ queryKey: DEVICES_QUERY_KEY, queryFn: fetchDevices, staleTime: 0 });
}

/** A changed slot replaces its old self in the list on screen. */
function useSlotChange<Request>(call: (request: Request) => Promise<Device>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: (device) =>
      client.setQueryData<DeviceList>(
        DEVICES_QUERY_KEY,
        (list) =>
          list && { ...list, devices: list.devices.map((slot) => (slot.id === device.id ? device : slot)) },
      ),
  });
}

export const useRenameDevice = () => useSlotChange(renameDevice);
export const useRegenerateDevice = () => useSlotChange(regenerateDevice);

export function useKeepDevices() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: keepDevices,
    onSuccess: (list) => client.setQueryData(DEVICES_QUERY_KEY, list),
  });
}
