import type { ReactElement } from 'react';
import { Navigate, type RouteObject, useRoutes } from 'react-router';
import { DownloadPage } from '../features/download/components/download-page.tsx';
import { LegalPage } from '../features/legal/components/legal-page.tsx';
import { lazyPage } from '../lib/lazy-page.ts';
import { AppShell } from './app-shell.tsx';
import { RouteBoundary } from './route-error-boundary.tsx';
import { WebsiteLayout } from './website-layout.tsx';

// The public pages are in the entry; everything that needs antd loads on demand, so that a visitor
// of /download downloads none of the console.
const LoginPage = lazyPage(() => import('../features/login/components/login-page.tsx'), 'LoginPage');
const ConsoleLayout = lazyPage(() => import('./console-layout.tsx'), 'ConsoleLayout');
const BuyPage = lazyPage(() => import('../features/buy/components/buy-page.tsx'), 'BuyPage');
const OrdersPage = lazyPage(() => import('../features/orders/components/orders-page.tsx'), 'OrdersPage');
const InvitationsPage = lazyPage(
  () => import('../features/invitations/components/invitations-page.tsx'),
  'InvitationsPage',
);
const NotFoundPage = lazyPage(
  () => import('../features/not-found/components/not-found-page.tsx'),
  'NotFoundPage',
);

/** A leaf route whose failure shows inside its layout rather than replacing the whole screen. */
const page = (path: string, element: ReactElement): RouteObject => ({
  path,
  element: <RouteBoundary>{element}</RouteBoundary>,
});

const redirect = (path: string, to: string): RouteObject => ({ path, element: <Navigate to={to} replace /> });

export const routes: RouteObject[] = [
  {
    element: <AppShell />,
    children: [
      redirect('/', '/website'),
      redirect('/website', '/download'),
      redirect('/backstage', '/buy'),
      {
        element: <WebsiteLayout />,
        children: [
          page('/download', <DownloadPage />),
          page('/privacy', <LegalPage document="privacy" />),
          page('/service', <LegalPage document="service" />),
          page('/use', <LegalPage document="use" />),
          page('/login', <LoginPage />),
        ],
      },
      {
        element: (
          <RouteBoundary>
            <ConsoleLayout />
          </RouteBoundary>
        ),
        children: [
          page('/buy', <BuyPage />),
          page('/order', <OrdersPage />),
          page('/invite', <InvitationsPage />),
          page('/404', <NotFoundPage />),
        ],
      },
      redirect('*', '/404'),
    ],
  },
];

/**
 * The routes, matched in React Router's declarative mode: the site uses no loaders or actions, and
 * the data router would add half again to the public pages' first load.
 */
export function AppRoutes() {
  return useRoutes(routes);
}
