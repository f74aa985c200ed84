import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Form, Input, InputNumber, Select, Space, Spin, Table } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import {
  SETTING_KEYS,
  type planAdminSchema,
  type settingsSchema,
} from '@skyway/shared/schemas/admin/settings';
import { api, ApiError } from '../api.ts';
import { money } from '../format.ts';
import { Forbidden } from '../layout.tsx';
import { useCan } from '../session.ts';

type Settings = z.infer<typeof settingsSchema>;
type Plan = z.infer<typeof planAdminSchema>;

/** The operator settings: every key of the settings command, saved together or not at all. */
function SettingsForm() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const can = useCan();
  const client = useQueryClient();
  const [form] = Form.useForm<Settings>();
  const [busy, setBusy] = useState(false);
  const result = useQuery({ queryKey: ['/settings'], queryFn: () => api<Settings>('GET', '/settings') });
  if (result.error) return <Alert type="error" title={result.error.message} />;
  if (!result.data) return <Spin />;
  const editable = can('settings.edit');
  const save = async (values: Settings) => {
    const changes = Object.fromEntries(
      SETTING_KEYS.filter((key) => values[key] !== result.data[key]).map((key) => [key, values[key]]),
    );
    if (Object.keys(changes).length === 0) return;
    setBusy(true);
    try {
      client.setQueryData(['/settings'], await api<Settings>('PATCH', '/settings', changes));
      message.success(t('done'));
    } catch (error) {
      if (error instanceof ApiError && error.field)
        form.setFields([{ name: error.field as keyof Settings, errors: [error.message] }]);
      else message.error(error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Form
      form={form}
      layout="vertical"
      initialValues={result.data}
      disabled={!editable}
      onFinish={save}
      style={{ maxWidth: 480 }}
    >
      <Form.Item name="open_trial" label={t('setting_open_trial')}>
        <Select
          options={[
            { value: '1', label: t('yes') },
            { value: '0', label: t('no') },
          ]}
        />
      </Form.Item>
      {SETTING_KEYS.filter((key) => key !== 'open_trial' && key !== 'reminder_days').map((key) => (
        <Form.Item
          key={key}
          name={key}
          label={t(`setting_${key}` as 'setting_trial_minute')}
          rules={[{ required: true, message: t('required') }]}
        >
          <InputNumber min={0} precision={0} style={{ width: '100%' }} />
        </Form.Item>
      ))}
      {/* Days before the end of access, separated by commas; empty: the reminder at the end only. */}
      <Form.Item name="reminder_days" label={t('setting_reminder_days')}>
        <Input placeholder="7,3,1" />
      </Form.Item>
      {editable && (
        <Button type="primary" htmlType="submit" loading={busy}>
          {t('save')}
        </Button>
      )}
    </Form>
  );
}

/** The unit price of each plan, in fen per connection. */
function PlansTable() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const can = useCan();
  const client = useQueryClient();
  const [prices, setPrices] = useState<Record<string, number | null>>({});
  const result = useQuery({ queryKey: ['/plans'], queryFn: () => api<Plan[]>('GET', '/plans') });
  if (result.error) return <Alert type="error" title={result.error.message} />;
  const editable = can('plans.edit');
  const save = async (plan: Plan) => {
    const price = prices[plan.period];
    if (!price) return;
    try {
      await api('PATCH', `/plans/${plan.period}`, { unit_price: price });
      message.success(t('done'));
      setPrices((current) => ({ ...current, [plan.period]: null }));
      await client.invalidateQueries({ queryKey: ['/plans'] });
    } catch (error) {
      message.error(error instanceof Error ? error.message : String(error));
    }
  };
  return (
    <Table<Plan>
      rowKey="period"
      size="small"
      loading={result.isFetching}
      pagination={false}
      dataSource={result.data ?? []}
      columns={[
        {
          title: t('period'),
          dataIndex: 'period',
          render: (period: string) => t(`period_${period}` as 'period_month'),
        },
        { title: t('unitPrice'), dataIndex: 'unit_price', render: (price: number) => money(price, 'cny') },
        ...(editable
          ? [
              {
                title: t('newPrice'),
                render: (_: unknown, plan: Plan) => (
                  <Space.Compact>
                    <InputNumber
                      aria-label={`${t('newPrice')} ${plan.period}`}
                      min={1}
                      max={10_000_000}
                      precision={0}
                      value={prices[plan.period] ?? null}
                      onChange={(value) => setPrices((current) => ({ ...current, [plan.period]: value }))}
                    />
                    <Button onClick={() => void save(plan)} disabled={!prices[plan.period]}>
                      {t('save')}
                    </Button>
                  </Space.Compact>
                ),
              },
            ]
          : []),
      ]}
    />
  );
}

export function SettingsPage() {
  const { t } = useTranslation();
  const can = useCan();
  if (!can('settings.view')) return <Forbidden />;
  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <Card title={t('plans')}>
        <PlansTable />
      </Card>
      <Card title={t('settings')}>
        <SettingsForm />
      </Card>
    </Space>
  );
}
