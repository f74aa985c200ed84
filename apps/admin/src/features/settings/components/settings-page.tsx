import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Form, Input, InputNumber, Select, Space, Spin, Table } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SETTING_KEYS } from '@skyway/shared/schemas/admin/settings';
import { ApiError } from '@skyway/shared/api-error';
import { money } from '../../../lib/format.ts';
import { Forbidden } from '../../../components/forbidden.tsx';
import { useCan } from '../../../lib/session.ts';
import { SETTINGS_KEY, type Settings, useSettings } from '../api/get-settings.ts';
import { PLANS_KEY, type Plan, usePlans } from '../api/list-plans.ts';
import { updatePlan } from '../api/update-plan.ts';
import { updateSettings } from '../api/update-settings.ts';

/** The operator settings: every key of the settings command, saved together or not at all. */
function SettingsForm() {
  const { t } = useTranslation(['settings', 'common']);
  const { message } = App.useApp();
  const can = useCan();
  const client = useQueryClient();
  const [form] = Form.useForm<Settings>();
  const [busy, setBusy] = useState(false);
  const result = useSettings();
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
      client.setQueryData(SETTINGS_KEY, await updateSettings(changes));
      message.success(t('common:done'));
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
            { value: '1', label: t('common:yes') },
            { value: '0', label: t('common:no') },
          ]}
        />
      </Form.Item>
      {SETTING_KEYS.filter((key) => key !== 'open_trial' && key !== 'reminder_days').map((key) => (
        <Form.Item
          key={key}
          name={key}
          label={t(`setting_${key}` as 'setting_trial_minute')}
          rules={[{ required: true, message: t('common:required') }]}
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
          {t('common:save')}
        </Button>
      )}
    </Form>
  );
}

/** The unit price of each plan, in fen per connection. */
function PlansTable() {
  const { t } = useTranslation(['settings', 'common']);
  const { message } = App.useApp();
  const can = useCan();
  const client = useQueryClient();
  const [prices, setPrices] = useState<Record<string, number | null>>({});
  const result = usePlans();
  if (result.error) return <Alert type="error" title={result.error.message} />;
  const editable = can('plans.edit');
  const save = async (plan: Plan) => {
    const price = prices[plan.period];
    if (!price) return;
    try {
      await updatePlan(plan.period, { unit_price: price });
      message.success(t('common:done'));
      setPrices((current) => ({ ...current, [plan.period]: null }));
      await client.invalidateQueries({ queryKey: PLANS_KEY });
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
          title: t('common:period'),
          dataIndex: 'period',
          render: (period: string) => t(`common:period_${period}` as 'common:period_month'),
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
                      {t('common:save')}
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
  const { t } = useTranslation(['settings', 'common']);
  const can = useCan();
  if (!can('settings.view')) return <Forbidden />;
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Card title={t('plans')}>
        <PlansTable />
      </Card>
      <Card title={t('common:settings')}>
        <SettingsForm />
      </Card>
    </Space>
  );
}
