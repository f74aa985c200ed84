import { Space } from 'antd';
import { DashboardPage } from '../features/dashboard/components/dashboard-page.tsx';
import { TicketTimesCard } from '../features/tickets/components/ticket-times-card.tsx';
import { useCan } from '../lib/session.ts';

/** The dashboard's figures, and support's first-response and resolution times below them. */
export function DashboardScreen() {
  const can = useCan();
  return (
    <Space orientation="vertical" style={{ width: '100%' }} size="middle">
      <DashboardPage />
      {can('dashboard.view') && can('tickets.view') && <TicketTimesCard />}
    </Space>
  );
}
