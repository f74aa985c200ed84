import { Alert, Button, Card, Checkbox, Descriptions, Form, Radio, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { STAFF_ALERT_KINDS, type StaffAlertPreferencesRequest } from '@skyway/shared/schemas/admin/alerts';
import type { TelegramBindLink } from '@skyway/shared/schemas/telegram';
import { when } from '../../../lib/format.ts';
import { useChange } from '../../../lib/use-change.ts';
import {
  makeTelegramLink,
  MY_ALERTS_KEY,
  saveMyAlerts,
  unbindTelegram,
  useMyAlerts,
} from '../api/my-alerts.ts';

/**
 * "My alerts", for every signed-in member: their Telegram binding (a one-time link to the bot, or
 * unbinding), and which alerts they get, on which channel, at once or in a daily digest.
 */
export function MyAlertsPage() {
  const { t } = useTranslation('alerts');
  const mine = useMyAlerts();
  const change = useChange(MY_ALERTS_KEY);
  const [link, setLink] = useState<TelegramBindLink | null>(null);
  const telegram = mine.data?.telegram;
  const telegramFallsBack = mine.data?.channel === 'telegram' && !telegram?.bound;

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Card title={t('telegramTitle')} loading={mine.isLoading}>
        <Descriptions column={1} size="small">
          <Descriptions.Item label={t('telegramState')}>
            {!telegram?.available
              ? t('telegramUnavailable')
              : telegram.bound
                ? t('boundSince', { at: when(telegram.bound_at) })
                : t('notBound')}
          </Descriptions.Item>
        </Descriptions>
        {telegram?.available && (
          <Space orientation="vertical">
            {link && (
              <Typography.Paragraph>
                {t('linkHelp', { until: when(link.expires_at) })}{' '}
                <Typography.Link href={link.url} target="_blank" rel="noreferrer">
                  {t('openBot', { bot: telegram.bot_username })}
                </Typography.Link>
              </Typography.Paragraph>
            )}
            <Space>
              <Button onClick={() => void change(async () => setLink(await makeTelegramLink()))}>
                {telegram.bound ? t('rebind') : t('bind')}
              </Button>
              {telegram.bound && (
                <Button
                  danger
                  onClick={() =>
                    void change(async () => {
                      await unbindTelegram();
                      setLink(null);
                    })
                  }
                >
                  {t('unbind')}
                </Button>
              )}
            </Space>
          </Space>
        )}
      </Card>
      <Card title={t('title')} loading={mine.isLoading}>
        {telegramFallsBack && (
          <Alert type="warning" showIcon title={t('fallsBackToMail')} style={{ marginBottom: 16 }} />
        )}
        {mine.data && (
          <Form<StaffAlertPreferencesRequest>
            layout="vertical"
            initialValues={{
              channel: mine.data.channel,
              kinds: mine.data.kinds,
              delivery: mine.data.delivery,
            }}
            onFinish={(values) => void change(() => saveMyAlerts(values))}
          >
            <Form.Item name="channel" label={t('channel')}>
              <Radio.Group>
                <Radio value="mail">{t('channel_mail')}</Radio>
                <Radio value="telegram" disabled={!telegram?.bound}>
                  {t('channel_telegram')}
                </Radio>
              </Radio.Group>
            </Form.Item>
            <Form.Item name="kinds" label={t('kinds')}>
              <Checkbox.Group
                style={{ display: 'flex', flexDirection: 'column', gap: 8 }}
                options={STAFF_ALERT_KINDS.map((kind) => ({ value: kind, label: t(`kind_${kind}`) }))}
              />
            </Form.Item>
            <Form.Item name="delivery" label={t('delivery')}>
              <Radio.Group>
                <Radio value="at_once">{t('delivery_at_once')}</Radio>
                <Radio value="digest">{t('delivery_digest')}</Radio>
              </Radio.Group>
            </Form.Item>
            <Button type="primary" htmlType="submit">
              {t('save')}
            </Button>
          </Form>
        )}
      </Card>
    </Space>
  );
}
