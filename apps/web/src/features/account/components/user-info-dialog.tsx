import type { ReactNode } from 'react';
import { AppleOutlined, WalletOutlined } from '@ant-design/icons';
import { Button, Descriptions, Modal, Typography } from 'antd';
import { DIALOG_WIDTH } from '../../../components/dialog-width.ts';
import { formatDateTime } from '@skyway/shared/dates';
import { SUBSCRIBE_TYPES } from '@skyway/shared/user';
import { useTranslation } from 'react-i18next';
import { AppStoreStatus } from '../../../components/app-store-status.tsx';
import { formatExpiry } from '../../../lib/dates.ts';
import { useSession } from '../../../lib/session.ts';
import { SubscriptionTag } from './subscription-tag.tsx';
import './user-info-dialog.css';

/** A downgrade bought earlier (from `/web/user/info`): from `from` (unix seconds) on, `connections` apply. */
export interface PendingConnections {
  connections: number;
  from: number;
}

interface Props {
  open: boolean;
  onClose: () => void;
  /** The free trial's state (the claim button while it can be claimed), composed by the app layer. */
  trial: ReactNode;
  /** The Telegram binding card, composed by the app layer. */
  telegram?: ReactNode;
  pending?: PendingConnections | null;
  /** An app-store subscriber's renewal state from `/web/user/info`; null until it has been read. */
  appStore?: AppStoreState | null;
}

/** `auto_renew`, and `app_store_expire`: the end of the store's period (not `expire_user`, which card time may extend). */
export interface AppStoreState {
  autoRenew: boolean;
  periodEnd: number;
}

export function UserInfoDialog({
  open,
  onClose,
  trial,
  telegram = null,
  pending = null,
  appStore = null,
}: Props) {
  // The app-store namespace is loaded with the console, not when the dialog first shows it.
  const { t } = useTranslation(['account', 'common', 'app-store']);
  const { user } = useSession();
  const type = user?.subscribe_type;

  const methods = [
    // Named as the subscription badge names it: the provider takes Alipay and WeChat Pay as well as cards.
    { key: SUBSCRIBE_TYPES.card, icon: <WalletOutlined />, label: t('common:subscribeType.2') },
    { key: SUBSCRIBE_TYPES.appStore, icon: <AppleOutlined />, label: t('userInfo.appStore') },
  ];

  return (
    <Modal
      open={open}
      width={DIALOG_WIDTH}
      title={t('userInfo.title')}
      onCancel={onClose}
      footer={
        <Button type="primary" onClick={onClose}>
          {t('userInfo.close')}
        </Button>
      }
    >
      <Descriptions column={1} size="small" colon={false} className="user-info">
        <Descriptions.Item label={t('userInfo.account')}>{user?.account}</Descriptions.Item>
        <Descriptions.Item label={t('common:expiry.label')}>
          {formatExpiry(user?.expire_user) ?? t('common:expiry.none')}
        </Descriptions.Item>
        {Boolean(user?.expire_user) && (
          <Descriptions.Item label={t('userInfo.connections')}>{user?.connections}</Descriptions.Item>
        )}
        {pending && (
          <Descriptions.Item label={t('userInfo.pendingConnections', { date: formatDateTime(pending.from) })}>
            {pending.connections}
          </Descriptions.Item>
        )}
        <Descriptions.Item label={t('userInfo.subscription')}>
          <SubscriptionTag type={type} />
        </Descriptions.Item>
      </Descriptions>
      {type === SUBSCRIBE_TYPES.appStore && appStore && (
        <div className="user-info__app-store">
          <AppStoreStatus expireAt={appStore.periodEnd} autoRenew={appStore.autoRenew} />
        </div>
      )}
      {/* A plain list: antd 6.6 deprecates List and warns on every render. */}
      <section className="user-info__methods" aria-labelledby="user-info-methods">
        <Typography.Text strong id="user-info-methods">
          {t('userInfo.paymentMethods')}
        </Typography.Text>
        <ul>
          {methods.map((method) => (
            <li key={method.key} className="user-info__method-row">
              <span className="user-info__method">
                {method.icon} {method.label}
              </span>
              {method.key === type && (
                <Typography.Text type="secondary">{t('userInfo.current')}</Typography.Text>
              )}
            </li>
          ))}
        </ul>
      </section>
      <div className="user-info__trial">{trial}</div>
      {telegram}
    </Modal>
  );
}
