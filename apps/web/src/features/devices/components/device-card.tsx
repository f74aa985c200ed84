import { EditOutlined, ReloadOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Descriptions } from 'antd';
import { formatBytes } from '@skyway/shared/bytes';
import { formatDateTime } from '@skyway/shared/dates';
import type { Device, DevicePlatform } from '@skyway/shared/devices';
import { useTranslation } from 'react-i18next';
import { StatusTag } from '../../../components/status-tag.tsx';
import { useCountryName } from '../../../lib/country-name.ts';
import { useDeviceName } from './device-name.ts';
import { DeviceImportButtons, DeviceLinkCopy, DeviceQrCode } from './device-link-parts.tsx';

interface Props {
  device: Device;
  /** The platform of the device this page is open on: its apps' import buttons are offered. */
  visitorPlatform: DevicePlatform | null;
  siteName: string;
  onRename: (device: Device) => void;
  onRegenerate: (device: Device) => void;
}

/**
 * The link is live on one device and a second one is being turned away (one device per slot): where
 * the first one is, since when, and what the customer can do about it.
 */
function InUseElsewhere({ country, refusedAt }: { country: string | null; refusedAt: number }) {
  const { t } = useTranslation('devices');
  const place = useCountryName()(country);
  return (
    <Alert
      className="device-card__notice device-card__elsewhere"
      type="warning"
      showIcon
      title={place ? t('elsewhere.title', { country: place }) : t('elsewhere.titleUnknown')}
      description={
        <>
          <div>{t('elsewhere.refused', { time: formatDateTime(refusedAt) })}</div>
          <div>{t('elsewhere.help', { action: t('regenerate.action') })}</div>
        </>
      }
    />
  );
}

/** One slot: its QR code, link, import buttons, facts, and its rename and reset actions. */
export function DeviceCard({ device, visitorPlatform, siteName, onRename, onRegenerate }: Props) {
  const { t } = useTranslation('devices');
  const name = useDeviceName()(device);

  return (
    <Card
      className="device-card"
      data-testid={`device-${device.position}`}
      title={name}
      extra={
        <StatusTag tone={device.active ? 'done' : 'over'}>
          {device.active ? t('state.active') : t('state.inactive')}
        </StatusTag>
      }
      actions={[
        <Button key="rename" type="text" icon={<EditOutlined />} onClick={() => onRename(device)}>
          {t('rename.action')}
        </Button>,
        <Button key="regenerate" type="text" icon={<ReloadOutlined />} onClick={() => onRegenerate(device)}>
          {t('regenerate.action')}
        </Button>,
      ]}
    >
      {!device.active && (
        <Alert className="device-card__notice" type="warning" showIcon title={t('inactiveHint')} />
      )}
      {device.in_use_elsewhere && (
        <InUseElsewhere
          country={device.in_use_elsewhere.country}
          refusedAt={device.in_use_elsewhere.refused_at}
        />
      )}
      <div className="device-card__top">
        <div className="device-card__qr">
          <DeviceQrCode device={device} name={name} />
        </div>
        <Descriptions
          column={1}
          size="small"
          colon={false}
          className="device-card__facts"
          items={[
            {
              key: 'platform',
              label: t('fields.platform'),
              children: device.platform ? t(`platforms.${device.platform}`) : '–',
            },
            { key: 'created', label: t('fields.created'), children: formatDateTime(device.created_at) },
            {
              key: 'last_fetch',
              label: t('fields.lastFetch'),
              children: device.last_fetch_at ? formatDateTime(device.last_fetch_at) : t('fields.never'),
            },
            {
              key: 'traffic',
              label: t('fields.traffic'),
              children: t('fields.trafficValue', {
                upload: formatBytes(device.upload),
                download: formatBytes(device.download),
              }),
            },
          ]}
        />
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
