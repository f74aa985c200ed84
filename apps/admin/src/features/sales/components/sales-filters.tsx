import { DatePicker, Input, Select, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useCoded } from '../../../lib/use-coded.ts';

type Filters = Record<string, string | undefined>;

/**
 * The filters of the orders and payments lists: their state (`status` or `outcome`, coded as the
 * server names it), provider, and days from the start of one to the end of another; a buyer's list
 * from their page (`?user_id=`).
 */
export function useSalesFilters(state: {
  key: 'status' | 'outcome';
  codes: readonly string[];
  prefix: string;
}) {
  const { t } = useTranslation('common');
  const coded = useCoded();
  const [search] = useSearchParams();
  const [filters, setFilters] = useState<Filters>({ user_id: search.get('user_id') ?? undefined });
  const change = (patch: Filters) => setFilters((current) => ({ ...current, ...patch }));
  const bar = (
    <Space wrap style={{ marginBottom: 16 }}>
      <Select
        allowClear
        aria-label={t(state.key)}
        placeholder={t(state.key)}
        style={{ width: 180 }}
        options={state.codes.map((code) => ({ value: code, label: coded(state.prefix, code) }))}
        onChange={(value?: string) => change({ [state.key]: value })}
      />
      <Input.Search
        allowClear
        placeholder={t('provider')}
        style={{ width: 160 }}
        onSearch={(provider) => change({ provider: provider.trim() || undefined })}
      />
      <DatePicker.RangePicker
        allowEmpty={[true, true]}
        onChange={(days) =>
          change({ from: days?.[0]?.startOf('day').toISOString(), to: days?.[1]?.endOf('day').toISOString() })
        }
      />
    </Space>
  );
  return { filters, bar };
}
