import { App, Button, Card, Descriptions, Form, Input, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Forbidden } from '../../../components/forbidden.tsx';
import { useCan } from '../../../lib/session.ts';
import { useChange } from '../../../lib/use-change.ts';
import { saveTelegramToken, TELEGRAM_BOT_KEY, testTelegramBot, useTelegramBot } from '../api/telegram-bot.ts';

/** The bot's settings: its token (written, never shown), how updates arrive, and a test. */
export function TelegramPage() {
  const { t } = useTranslation('telegram');
  const can = useCan();
  const allowed = can('telegram.edit');
  const bot = useTelegramBot(allowed);
  const change = useChange(TELEGRAM_BOT_KEY);
  const { message } = App.useApp();
  const [form] = Form.useForm<{ token: string }>();
  const [testing, setTesting] = useState(false);
  if (!allowed) return <Forbidden />;

  const test = async () => {
    setTesting(true);
    try {
      const answer = await testTelegramBot();
      if (answer.ok) message.success(t('testOk', { bot: answer.username }));
      else message.error(t('testFailed'));
    } catch (error) {
      message.error(error instanceof Error ? error.message : String(error));
    } finally {
      setTesting(false);
    }
  };

  return (
    <Card title={t('title')} loading={bot.isLoading}>
      <Descriptions column={1} size="small">
        <Descriptions.Item label={t('bot')}>
          {bot.data?.username ? `@${bot.data.username}` : t('notSet')}
        </Descriptions.Item>
        <Descriptions.Item label={t('mode')}>{bot.data ? t(`mode_${bot.data.mode}`) : ''}</Descriptions.Item>
      </Descriptions>
      <Form
        form={form}
        layout="vertical"
        onFinish={({ token }) =>
          change(async () => {
            await saveTelegramToken(token);
            form.resetFields();
          })
        }
      >
        <Form.Item
          name="token"
          label={t('token')}
          extra={t('tokenHelp')}
          rules={[{ required: true, pattern: /^\d{1,20}:[A-Za-z0-9_-]{30,60}$/, message: t('tokenInvalid') }]}
        >
          <Input.Password autoComplete="off" />
        </Form.Item>
        <Space>
          <Button type="primary" htmlType="submit">
            {t('save')}
          </Button>
          <Button onClick={() => void test()} loading={testing} disabled={!bot.data?.configured}>
            {t('test')}
          </Button>
        </Space>
      </Form>
    </Card>
  );
}
