import { CopyOutlined } from '@ant-design/icons';
import { Button, Input, QRCode, Space, Typography } from 'antd';
import type { Device, DevicePlatform } from '@skyway/shared/devices';
import { importLinksFor } from '@skyway/shared/import-links';
import { useTranslation } from 'react-i18next';
import { useCopy } from '../../../lib/use-copy.ts';

/** Large enough to scan from a phone held at a screen, small enough for a 375 px card. */
const QR_SIZE = 148;

/** A slot's link as a QR code, for an app on another device to scan. */
export function DeviceQrCode({ device, name }: { device: Device; name: string }) {
  const { t } = useTranslation('devices');
  return (
    <QRCode value={device.url} type="svg" size={QR_SIZE} bordered={false} aria-label={t('qr', { name })} />
  );
}

/** A slot's link, to read and copy. */
export function DeviceLinkCopy({ device }: { device: Device }) {
  const { t } = useTranslation('devices');
  const copy = useCopy();
  return (
    <Space.Compact block className="device-card__link">
      <Input readOnly value={device.url} aria-label={t('link')} />
      <Button type="primary" icon={<CopyOutlined />} onClick={() => void copy(device.url)}>
        {t('copy')}
      </Button>
    </Space.Compact>
  );
}

/** The one-tap imports of a slot's link into the apps the visitor's platform runs. */
export function DeviceImportButtons({
  device,
  title,
  visitorPlatform,
}: {
  device: Device;
  title: string;
  visitorPlatform: DevicePlatform | null;
}) {
  const { t } = useTranslation('devices');
  const links = importLinksFor(device.url, title, visitorPlatform);
  return (
    <div className="device-card__imports">
      <Typography.Text type="secondary">{t('import')}</Typography.Text>
      <Space wrap size="small">
        {links.map((link) => (
          <Button key={link.app} size="small" href={link.href}>
            {link.app}
          </Button>
        ))}
      </Space>
    </div>
  );
}
