import { useState } from 'react';
import { Card, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { detectVisitorPlatform } from '../../../lib/detect-platform.ts';
import { useSiteConf } from '../../../lib/site-conf.ts';
import { useDevices } from '../api/devices.ts';
import { useDeviceName } from './device-name.ts';
import { DeviceImportButtons, DeviceLinkCopy, DeviceQrCode } from './device-link-parts.tsx';
import './devices-page.css';

/**
 * One of the signed-in customer's own devices, chosen from a list, with its QR code, link and import
 * buttons as My devices shows them: what a help article's device placeholder holds.
 */
export function DeviceLinkPicker() {
  const { t } = useTranslation(['devices', 'common']);
  const { data: conf } = useSiteConf();
  const siteName = conf?.site_name || t('common:brand');
  const deviceName = useDeviceName();
  const devices = useDevices();
  const [chosenId, setChosenId] = useState<string | null>(null);
  const [visitorPlatform] = useState(detectVisitorPlatform);

  const list = devices.data?.devices;
  if (list === undefined) return <Card loading className="device-picker" />;
  if (list.length === 0) {
    return (
      <Card className="device-picker">
        <Typography.Paragraph>{t('empty.text')}</Typography.Paragraph>
        <Link to="/buy">{t('empty.buy')}</Link>
      </Card>
    );
  }
  const device = list.find((slot) => slot.id === chosenId) ?? list[0];
  if (!device) return null;
  const name = deviceName(device);

  return (
    <Card className="device-picker" data-testid="device-picker">
      <Select
        value={device.id}
        onChange={setChosenId}
        options={list.map((slot) => ({ value: slot.id, label: deviceName(slot) }))}
        aria-label={t('picker.label')}
        className="device-picker__select"
      />
      <div className="device-picker__qr">
        <DeviceQrCode device={device} name={name} />
      </div>
      <DeviceLinkCopy device={device} />
      <DeviceImportButtons
        device={device}
        title={`${siteName} · ${name}`}
        visitorPlatform={visitorPlatform}
      />
    </Card>
  );
}
