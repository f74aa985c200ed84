import type { ComponentType } from 'react';
import { createBrowserRouter } from 'react-router';
import { loadNamespace } from '../lib/i18n.ts';
import { SetupPage } from '../features/session/components/setup.tsx';
import { SignInPage } from '../features/session/components/sign-in.tsx';
import { ConsoleLayout } from './console-layout.tsx';

/**
 * A console screen, downloaded when it is first opened: the sign-in and set-up screens and the
 * layout come with the entry, each screen (and what only it uses, the dashboard's chart among them)
 * in a chunk of its own. The screen's feature texts are fetched alongside its code, so that it
 * renders once, in the member's language.
 */
const page =
  <Module extends Record<string, unknown>>(
    load: () => Promise<Module>,
    name: keyof Module & string,
    namespace: string | string[],
  ) =>
  async () => {
    const namespaces = typeof namespace === 'string' ? [namespace] : namespace;
    const [module] = await Promise.all([load(), ...namespaces.map((each) => loadNamespace(each))]);
    return { Component: module[name] as ComponentType };
  };

export const router = createBrowserRouter(
  [
    { path: '/sign-in', element: <SignInPage /> },
    { path: '/setup/:token', element: <SetupPage /> },
    {
      element: <ConsoleLayout />,
      children: [
        {
          index: true,
          lazy: page(() => import('./dashboard-screen.tsx'), 'DashboardScreen', ['dashboard', 'tickets']),
        },
        {
          path: 'users',
          lazy: page(() => import('../features/users/components/users-page.tsx'), 'UsersPage', 'users'),
        },
        {
          path: 'users/:id',
          lazy: page(() => import('../features/users/components/user-page.tsx'), 'UserPage', 'users'),
        },
        {
          path: 'orders',
          lazy: page(() => import('../features/sales/components/orders-page.tsx'), 'OrdersPage', 'sales'),
        },
        {
          path: 'payments',
          lazy: page(() => import('../features/sales/components/payments-page.tsx'), 'PaymentsPage', 'sales'),
        },
        {
          path: 'attention',
          lazy: page(
            () => import('../features/sales/components/attention-page.tsx'),
            'AttentionPage',
            'sales',
          ),
        },
        {
          path: 'gateways',
          lazy: page(
            () => import('../features/gateways/components/gateways-page.tsx'),
            'GatewaysPage',
            'gateways',
          ),
        },
        {
          path: 'telegram',
          lazy: page(
            () => import('../features/telegram/components/telegram-page.tsx'),
            'TelegramPage',
            'telegram',
          ),
        },
        {
          path: 'my-alerts',
          lazy: page(
            () => import('../features/alerts/components/my-alerts-page.tsx'),
            'MyAlertsPage',
            'alerts',
          ),
        },
        {
          path: 'coupons',
          lazy: page(
            () => import('../features/coupons/components/coupons-page.tsx'),
            'CouponsPage',
            'coupons',
          ),
        },
        {
          path: 'redeem-codes',
          lazy: page(
            () => import('../features/redeem/components/redeem-codes-page.tsx'),
            'RedeemCodesPage',
            'redeem',
          ),
        },
        {
          path: 'nodes',
          lazy: page(() => import('../features/nodes/components/nodes-page.tsx'), 'NodesPage', 'nodes'),
        },
        {
          path: 'tickets',
          lazy: page(
            () => import('../features/tickets/components/tickets-page.tsx'),
            'TicketsPage',
            'tickets',
          ),
        },
        {
          path: 'notices',
          lazy: page(
            () => import('../features/notices/components/notices-page.tsx'),
            'NoticesPage',
            'notices',
          ),
        },
        {
          path: 'help',
          lazy: page(
            () => import('../features/help/components/help-articles-page.tsx'),
            'HelpArticlesPage',
            'help',
          ),
        },
        {
          path: 'settings',
          lazy: page(
            () => import('../features/settings/components/settings-page.tsx'),
            'SettingsPage',
            'settings',
          ),
        },
        {
          path: 'staff',
          lazy: page(() => import('../features/staff/components/staff-page.tsx'), 'StaffPage', 'staff'),
        },
        {
          path: 'mail',
          lazy: page(() => import('../features/mail/components/mail-page.tsx'), 'MailPage', 'mail'),
        },
        {
          path: 'jobs',
          lazy: page(() => import('../features/jobs/components/jobs-page.tsx'), 'JobsPage', 'jobs'),
        },
        {
          path: 'audit',
          lazy: page(() => import('../features/audit/components/audit-page.tsx'), 'AuditPage', 'audit'),
        },
      ],
    },
  ],
  { basename: '/admin' },
);
