import { Button, Space, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useTelegramBinding, useTelegramChange, useTelegramLink } from '../api/telegram-binding.ts';

/**
 * The account's Telegram card: a one-time link that opens the bot (pressing Start there binds),
 * and once bound, whether reminders and notices also come by mail, and unbinding. Nothing while the
 * site has no bot.
 */
export function TelegramBinding() {
  const { t } = useTranslation('telegram');
  const link = useTelegramLink();
  const binding = useTelegramBinding(Boolean(link.data));
  const change = useTelegramChange();
  const state = binding.data;
  if (!state?.available) return null;

  if (state.bound) {
    return (
      <section aria-label={t('title')}>
        <Typography.Text strong>{t('title')}</Typography.Text>
        <p>{t('bound')}</p>
        <Space orientation="vertical">
          <label>
            <Switch
              checked={!state.mail_off}
              loading={change.isPending}
              onChange={(mail) => change.mutate({ mail_off: !mail })}
            />{' '}
            {t('alsoByMail')}
          </label>
          <Button danger onClick={() => change.mutate({ unbind: true })} loading={change.isPending}>
            {t('unbind')}
          </Button>
        </Space>
      </section>
    );
  }

  return (
    <section aria-label={t('title')}>
      <Typography.Text strong>{t('title')}</Typography.Text>
      <p>{t('intro')}</p>
      {link.data ? (
        <Space orientation="vertical">
          <Button type="primary" href={link.data.url} target="_blank" rel="noreferrer">
            {t('open', { bot: state.bot_username })}
          </Button>
          <Typography.Text type="secondary">{t('linkValid')}</Typography.Text>
        </Space>
      ) : (
        <Button onClick={() => link.mutate()} loading={link.isPending}>
          {t('bind')}
        </Button>
      )}
    </section>
  );
}
