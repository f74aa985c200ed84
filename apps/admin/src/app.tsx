import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntdApp, ConfigProvider } from 'antd';
import enUS from 'antd/locale/en_US';
import zhCN from 'antd/locale/zh_CN';
import zhTW from 'antd/locale/zh_TW';
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { currentLanguage } from './i18n.ts';
import { ConsoleLayout } from './layout.tsx';
import { SetupPage } from './pages/setup.tsx';
import { SignInPage } from './pages/sign-in.tsx';

/**
 * A console screen, downloaded when it is first opened: the sign-in and set-up screens and the
 * layout come with the entry, each screen (and what only it uses, the dashboard's chart among them)
 * in a chunk of its own.
 */
const page =
  <Module extends Record<string, unknown>>(load: () => Promise<Module>, name: keyof Module & string) =>
  async () => ({ Component: (await load())[name] as ComponentType });

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
        { index: true, lazy: page(() => import('./pages/dashboard.tsx'), 'DashboardPage') },
        { path: 'users', lazy: page(() => import('./pages/users.tsx'), 'UsersPage') },
        { path: 'users/:id', lazy: page(() => import('./pages/user.tsx'), 'UserPage') },
        { path: 'orders', lazy: page(() => import('./pages/orders.tsx'), 'OrdersPage') },
        { path: 'payments', lazy: page(() => import('./pages/payments.tsx'), 'PaymentsPage') },
        { path: 'attention', lazy: page(() => import('./pages/attention.tsx'), 'AttentionPage') },
        { path: 'nodes', lazy: page(() => import('./pages/nodes.tsx'), 'NodesPage') },
        { path: 'notices', lazy: page(() => import('./pages/notices.tsx'), 'NoticesPage') },
        { path: 'settings', lazy: page(() => import('./pages/settings.tsx'), 'SettingsPage') },
        { path: 'staff', lazy: page(() => import('./pages/staff.tsx'), 'StaffPage') },
        { path: 'mail', lazy: page(() => import('./pages/mail.tsx'), 'MailPage') },
        { path: 'jobs', lazy: page(() => import('./pages/jobs.tsx'), 'JobsPage') },
        { path: 'audit', lazy: page(() => import('./pages/audit.tsx'), 'AuditPage') },
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
