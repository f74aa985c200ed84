import {
  CustomerServiceOutlined,
  AlertOutlined,
  AuditOutlined,
  CloudServerOutlined,
  CreditCardOutlined,
  SendOutlined,
  DashboardOutlined,
  KeyOutlined,
  MailOutlined,
  NotificationOutlined,
  QuestionCircleOutlined,
  ScheduleOutlined,
  SettingOutlined,
  ShoppingCartOutlined,
  TagsOutlined,
  TeamOutlined,
  TransactionOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { Alert, Button, Dropdown, Layout, Menu, Space, Spin, Typography } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import type { Permission } from '@skyway/shared/staff';
import { api } from '../lib/api-client.ts';
import { LanguageSelect } from '../components/language-select.tsx';
import { NewRecoveryCodesDialog } from '../features/session/components/new-recovery-codes.tsx';
import { useCan, useSession, useSetSession } from '../lib/session.ts';

const MENU: { path: string; permission: Permission; label: string; icon: ReactNode }[] = [
  { path: '/', permission: 'dashboard.view', label: 'menuDashboard', icon: <DashboardOutlined /> },
  { path: '/users', permission: 'users.view', label: 'menuUsers', icon: <UserOutlined /> },
  { path: '/attention', permission: 'orders.view', label: 'menuAttention', icon: <AlertOutlined /> },
  { path: '/orders', permission: 'orders.view', label: 'menuOrders', icon: <ShoppingCartOutlined /> },
  { path: '/payments', permission: 'orders.view', label: 'menuPayments', icon: <TransactionOutlined /> },
  { path: '/gateways', permission: 'gateways.edit', label: 'menuGateways', icon: <CreditCardOutlined /> },
  { path: '/telegram', permission: 'telegram.edit', label: 'menuTelegram', icon: <SendOutlined /> },
  { path: '/coupons', permission: 'coupons.edit', label: 'menuCoupons', icon: <TagsOutlined /> },
  { path: '/redeem-codes', permission: 'redeem.edit', label: 'menuRedeem', icon: <KeyOutlined /> },
  { path: '/nodes', permission: 'nodes.view', label: 'menuNodes', icon: <CloudServerOutlined /> },
  { path: '/tickets', permission: 'tickets.view', label: 'menuTickets', icon: <CustomerServiceOutlined /> },
  { path: '/notices', permission: 'notices.view', label: 'menuNotices', icon: <NotificationOutlined /> },
  { path: '/help', permission: 'help.view', label: 'menuHelp', icon: <QuestionCircleOutlined /> },
  { path: '/settings', permission: 'settings.view', label: 'menuSettings', icon: <SettingOutlined /> },
  { path: '/staff', permission: 'staff.view', label: 'menuStaff', icon: <TeamOutlined /> },
  { path: '/mail', permission: 'mail.view', label: 'menuMail', icon: <MailOutlined /> },
  { path: '/jobs', permission: 'jobs.view', label: 'menuJobs', icon: <ScheduleOutlined /> },
  { path: '/audit', permission: 'audit.view', label: 'menuAudit', icon: <AuditOutlined /> },
];

/** The signed-in console: a side menu of what the member's role may use, and the page. */
export function ConsoleLayout() {
  const { t } = useTranslation('common');
  const session = useSession();
  const can = useCan();
  const setSession = useSetSession();
  const navigate = useNavigate();
  const location = useLocation();
  const [makingCodes, setMakingCodes] = useState(false);
  if (session.isPending) return <Spin style={{ display: 'block', marginTop: 120 }} />;
  if (!session.data) return <Navigate to="/sign-in" replace />;
  const { staff, old_recovery_codes_left: oldCodes } = session.data;
  const items = MENU.filter((item) => can(item.permission)).map((item) => ({
    key: item.path,
    icon: item.icon,
    label: t(item.label as 'menuUsers'),
  }));
  const selected =
    MENU.filter((item) => item.path !== '/' && location.pathname.startsWith(item.path))[0]?.path ?? '/';
  const signOut = async () => {
    await api('DELETE', '/session').catch(() => undefined);
    setSession(null);
    navigate('/sign-in');
  };
  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Layout.Sider breakpoint="lg" collapsedWidth={0} theme="light" width={208}>
        <Typography.Title level={5} style={{ padding: '16px 24px', margin: 0 }}>
          {t('brand')}
        </Typography.Title>
        <Menu mode="inline" selectedKeys={[selected]} items={items} onClick={({ key }) => navigate(key)} />
      </Layout.Sider>
      <Layout>
        <Layout.Header
          style={{
            background: '#fff',
            display: 'flex',
            justifyContent: 'flex-end',
            alignItems: 'center',
            paddingInline: 24,
          }}
        >
          <Space>
            <Dropdown
              trigger={['click']}
              menu={{
                items: [
                  { key: 'my-alerts', label: t('myAlerts') },
                  { key: 'recovery-codes', label: t('newRecoveryCodes') },
                ],
                onClick: ({ key }) => (key === 'my-alerts' ? navigate('/my-alerts') : setMakingCodes(true)),
              }}
            >
              <Button type="text" data-testid="signed-in-as">
                {staff.email} · {t(`role_${staff.role}`)}
              </Button>
            </Dropdown>
            <LanguageSelect />
            <Button onClick={() => void signOut()}>{t('signOut')}</Button>
          </Space>
        </Layout.Header>
        <Layout.Content style={{ padding: 24 }}>
          {oldCodes > 0 && (
            <Alert
              type="warning"
              showIcon
              data-testid="old-recovery-codes"
              title={t('oldRecoveryCodesNotice')}
              action={
                <Button size="small" onClick={() => setMakingCodes(true)}>
                  {t('newRecoveryCodes')}
                </Button>
              }
              style={{ marginBottom: 16 }}
            />
          )}
          <NewRecoveryCodesDialog open={makingCodes} onClose={() => setMakingCodes(false)} />
          <Outlet />
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
