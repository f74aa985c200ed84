import { useState } from 'react';
import { Alert, Button, Card, Col, Row, Typography } from 'antd';
import { formatDateTime } from '@skyway/shared/dates';
import type { Device } from '@skyway/shared/devices';
import { useTranslation } from 'react-i18next';
import { BuyFirst } from '../../../components/buy-first.tsx';
import { usePageMeta } from '../../../lib/page-meta.ts';
import { useSiteConf } from '../../../lib/site-conf.ts';
import { useNowSeconds } from '../../../lib/use-now-seconds.ts';
import { useUserInfo } from '../../../lib/user-info.ts';
import { detectVisitorPlatform } from '../../../lib/detect-platform.ts';
import { useDevices } from '../api/devices.ts';
import { ConnectGuide } from './connect-guide.tsx';
import { DeviceCard } from './device-card.tsx';
import { KeepDialog } from './keep-dialog.tsx';
import { RegenerateDialog } from './regenerate-dialog.tsx';
import { RenameDialog } from './rename-dialog.tsx';
import './devices-page.css';

/** A downgrade's date only matters to the minute. */
const TICK_MS = 60_000;

/**
 * My devices: every paid connection a slot with its QR code, link and import buttons, its rename and
 * reset; before a downgrade, the choice of slots to keep; and how to connect on each platform.
 */
export function DevicesPage() {
  const { t } = useTranslation(['devices', 'common']);
  usePageMeta(t('title'));
  const { data: conf } = useSiteConf();
  const siteName = conf?.site_name || t('common:brand');
  const devices = useDevices();
  const { data: info } = useUserInfo();
  const now = useNowSeconds(TICK_MS);
  const [visitorPlatform] = useState(detectVisitorPlatform);
  const [renaming, setRenaming] = useState<Device | null>(null);
  const [regenerating, setRegenerating] = useState<Device | null>(null);
  const [choosing, setChoosing] = useState(false);

  const list = devices.data?.devices;
  if (list === undefined) return <Card loading className="devices-loading" />;

  if (list.length === 0) return <BuyFirst description={t('empty.text')} buy={t('empty.buy')} />;

  // A downgrade bought for later: the customer may choose now which slots outlive it.
  const downgrade =
    info &&
    info.pending_connections !== null &&
    info.pending_from > now &&
    info.pending_connections < list.length
      ? { count: info.pending_connections, date: formatDateTime(info.pending_from) }
      : null;

  return (
    <Row gutter={[16, 16]} className="devices-page">
      <Col span={24}>
        <Card>
          <Typography.Paragraph>{t('intro')}</Typography.Paragraph>
          <Typography.Text strong data-testid="devices-usable">
            {t('usable', { usable: devices.data?.usable ?? 0, total: list.length })}
          </Typography.Text>
        </Card>
      </Col>
      {downgrade && (
        <Col span={24}>
          <Alert
            type="info"
            showIcon
            title={t('keep.alert', downgrade)}
            action={
              <Button size="small" onClick={() => setChoosing(true)}>
                {t('keep.action')}
              </Button>
            }
          />
        </Col>
      )}
      {list.map((device) => (
        <Col key={device.id} xs={24} lg={12} xxl={8}>
          <DeviceCard
            device={device}
            visitorPlatform={visitorPlatform}
            siteName={siteName}
            onRename={setRenaming}
            onRegenerate={setRegenerating}
          />
        </Col>
      ))}
      <Col span={24}>
        <ConnectGuide initial={visitorPlatform ?? 'other'} />
      </Col>
      <RenameDialog device={renaming} visitorPlatform={visitorPlatform} onClose={() => setRenaming(null)} />
      <RegenerateDialog device={regenerating} onClose={() => setRegenerating(null)} />
      {choosing && downgrade && (
        <KeepDialog devices={list} count={downgrade.count} onClose={() => setChoosing(false)} />
      )}
    </Row>
  );
}
