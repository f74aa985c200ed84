import { useState } from 'react';
import { Card, Segmented, Select, Space } from 'antd';
import { DEVICE_PLATFORMS, type DevicePlatform } from '@skyway/shared/devices';
import { helpPath, TUTORIAL_FOR_PLATFORM } from '@skyway/shared/help';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { MOBILE_QUERY, useMediaQuery } from '../../../lib/use-media-query.ts';

/**
 * Three steps per platform from an app to a working connection, the visitor's platform first shown,
 * and the help center's tutorial of that platform's app.
 */
export function ConnectGuide({ initial }: { initial: DevicePlatform }) {
  const { t } = useTranslation('devices');
  const [platform, setPlatform] = useState<DevicePlatform>(initial);
  const steps = t(`guide.${platform}`, { returnObjects: true });
  const options = DEVICE_PLATFORMS.map((value) => ({ value, label: t(`platforms.${value}`) }));
  // Six platforms do not fit side by side on a phone: there they are a list to pick from.
  const narrow = useMediaQuery(MOBILE_QUERY);

  return (
    <Card title={t('guide.title')} className="connect-guide">
      {narrow ? (
        <Select<DevicePlatform>
          value={platform}
          onChange={setPlatform}
          options={options}
          aria-label={t('rename.platform')}
          className="connect-guide__platforms"
        />
      ) : (
        <Segmented<DevicePlatform> value={platform} onChange={setPlatform} options={options} />
      )}
      <ol className="connect-guide__steps" data-platform={platform}>
        {steps.map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
      <Space wrap size="middle">
        <Link to={helpPath(TUTORIAL_FOR_PLATFORM[platform])} data-testid="connect-guide-tutorial">
          {TUTORIAL_FOR_PLATFORM[platform] ? t('guide.tutorial') : t('guide.tutorials')}
        </Link>
        <Link to="/download">{t('guide.download')}</Link>
      </Space>
    </Card>
  );
}
