import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntdApp, ConfigProvider } from 'antd';
import enUS from 'antd/locale/en_US';
import zhCN from 'antd/locale/zh_CN';
import zhTW from 'antd/locale/zh_TW';
import { useTranslation } from 'react-i18next';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { currentLanguage } from './i18n.ts';
import { ConsoleLayout } from './layout.tsx';
import { AttentionPage } from './pages/attention.tsx';
import { AuditPage } from './pages/audit.tsx';
import { DashboardPage } from './pages/dashboard.tsx';
import { JobsPage } from './pages/jobs.tsx';
import { MailPage } from './pages/mail.tsx';
import { NodesPage } from './pages/nodes.tsx';
import { OrdersPage } from './pages/orders.tsx';
import { PaymentsPage } from './pages/payments.tsx';
import { SettingsPage } from './pages/settings.tsx';
import { SetupPage } from './pages/setup.tsx';
import { SignInPage } from './pages/sign-in.tsx';
import { StaffPage } from './pages/staff.tsx';
import { UserPage } from './pages/user.tsx';
import { UsersPage } from './pages/users.tsx';

const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } },
});

const router = createBrowserRouter(
  [
    { path: '/sign-in', element: <SignInPage /> },
    { path: '/setup/:token', element: <SetupPage /> },
    {
      element: <ConsoleLayout />,
      children: [
        { index: true, element: <DashboardPage /> },
        { path: 'users', element: <UsersPage /> },
        { path: 'users/:id', element: <UserPage /> },
        { path: 'orders', element: <OrdersPage /> },
        { path: 'payments', element: <PaymentsPage /> },
        { path: 'attention', element: <AttentionPage /> },
        { path: 'nodes', element: <NodesPage /> },
        { path: 'settings', element: <SettingsPage /> },
        { path: 'staff', element: <StaffPage /> },
        { path: 'mail', element: <MailPage /> },
        { path: 'jobs', element: <JobsPage /> },
        { path: 'audit', element: <AuditPage /> },
      ],
    },
  ],
  { basename: '/admin' },
);

const LOCALES = { en: enUS, zh: zhCN, tw: zhTW };

function Localized() {
  // Re-rendered on a change of language.
  useTranslation();
  return (
    <ConfigProvider locale={LOCALES[currentLanguage()]} theme={{ token: { colorPrimary: '#1677ff' } }}>
      <AntdApp>
        <RouterProvider router={router} />
      </AntdApp>
    </ConfigProvider>
  );
}

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <Localized />
    </QueryClientProvider>
  );
}
