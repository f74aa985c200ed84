import type { Device } from '@skyway/shared/devices';
import { useTranslation } from 'react-i18next';

/** A slot's name as the customer sees it: theirs, else "Device N". */
export function useDeviceName(): (device: Pick<Device, 'name' | 'position'>) => string {
  const { t } = useTranslation('devices');
  return (device) => device.name ?? t('device', { position: device.position });
}
