import { Card, Space, Statistic } from 'antd';
import { useTranslation } from 'react-i18next';
import { duration } from '../../../lib/format.ts';
import { useTicketTimes } from '../api/ticket-times.ts';

/** The support figures of the last 30 days: tickets opened, waiting now, first-response and resolution medians. */
export function TicketTimesCard() {
  const { t } = useTranslation('tickets');
  const times = useTicketTimes().data;
  const seconds = (value: number | null | undefined) =>
    value === null || value === undefined ? '—' : duration(Math.round(value));
  return (
    <Card size="small" title={t('timesTitle')}>
      <Space size="large" wrap>
        <Statistic title={t('opened')} value={times?.opened ?? '—'} />
        <Statistic title={t('waitingNow')} value={times?.waiting ?? '—'} />
        <Statistic title={t('firstResponse')} value={seconds(times?.first_response_median_seconds)} />
        <Statistic title={t('resolution')} value={seconds(times?.resolution_median_seconds)} />
      </Space>
    </Card>
  );
}
