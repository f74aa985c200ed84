import { Tag } from 'antd';
import type { SubscribeType } from '@skyway/shared/user';
import { useTranslation } from 'react-i18next';

const COLOR: Record<SubscribeType, string> = { 1: 'default', 2: 'blue', 3: 'purple' };

/** The subscription type as a badge: 1 not purchased, 2 card provider, 3 app store. */
export function SubscriptionTag({ type }: { type: SubscribeType | undefined }) {
  const { t } = useTranslation();
  const value = type ?? 1;
  return (
    <Tag color={COLOR[value]} className="subscription-tag" data-subscribe-type={value}>
      {t(`subscribeType.${value}`)}
    </Tag>
  );
}
