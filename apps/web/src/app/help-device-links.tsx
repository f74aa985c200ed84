import { AntdProvider } from '../components/antd-provider.tsx';
import { DeviceLinkPicker } from '../features/devices/components/device-link-picker.tsx';

/** A help article's device placeholder for a signed-in customer: My devices' own link, in antd's frame. */
export function HelpDeviceLinks() {
  return (
    <AntdProvider>
      <DeviceLinkPicker />
    </AntdProvider>
  );
}
