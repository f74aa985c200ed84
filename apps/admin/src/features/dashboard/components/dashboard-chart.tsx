import { BarChart, LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { Daily } from '../api/get-daily.ts';

echarts.use([BarChart, LineChart, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

/**
 * The last days drawn: revenue per currency as bars (yuan), paid orders, new accounts and trials as
 * lines. Its own chunk, loaded when the dashboard shows it, so ECharts weighs on no other screen.
 */
export default function DashboardChart({ days }: { days: Daily }) {
  const { t } = useTranslation('dashboard');
  const element = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!element.current) return;
    const chart = echarts.init(element.current);
    const currencies = [...new Set(days.flatMap((day) => day.revenue.map((money) => money.currency)))];
    chart.setOption({
      animation: false,
      tooltip: { trigger: 'axis' },
      legend: { top: 0 },
      grid: { left: 48, right: 48, top: 40, bottom: 32 },
      xAxis: { type: 'category', data: days.map((day) => day.day.slice(5)) },
      yAxis: [
        { type: 'value', name: t('revenue') },
        { type: 'value', name: t('count'), minInterval: 1 },
      ],
      series: [
        ...currencies.map((currency) => ({
          name: `${t('revenue')} ${currency}`,
          type: 'bar',
          data: days.map(
            (day) => (day.revenue.find((money) => money.currency === currency)?.amount ?? 0) / 100,
          ),
        })),
        ...(['paid_orders', 'new_accounts', 'trials'] as const).map((figure) => ({
          name: t(
            figure === 'paid_orders'
              ? 'paidOrders'
              : figure === 'new_accounts'
                ? 'newAccounts'
                : 'trialsClaimed',
          ),
          type: 'line',
          yAxisIndex: 1,
          data: days.map((day) => day[figure]),
        })),
      ],
    });
    const resize = () => chart.resize();
    window.addEventListener('resize', resize);
    return () => {
      window.removeEventListener('resize', resize);
      chart.dispose();
    };
  }, [days, t]);
  return (
    <div
      ref={element}
      role="img"
      aria-label={t('last30')}
      data-testid="dashboard-chart"
      style={{ height: 320 }}
    />
  );
}
