import type { ReactElement } from 'react';
import { matchRoutes, Navigate, type RouteObject, useRoutes } from 'react-router';
import { type LegalDocument, legalNamespace } from '../features/legal/documents.ts';
import { lazyPage } from '../lib/lazy-page.ts';
import { AppShell } from './app-shell.tsx';
import { RouteBoundary } from './route-error-boundary.tsx';
import { guardRedirect } from './route-guard.ts';
import { WebsiteLayout } from './website-layout.tsx';

// Every page loads on demand, so that the entry holds only what all of them share: a visitor of
// /privacy downloads neither the download page nor the sign-in forms, and none of them the console.
const DownloadPage = lazyPage(
  () => import('../features/download/components/download-page.tsx'),
  'DownloadPage',
  'download',
);
const LoginPage = lazyPage(() => import('../features/login/components/login-page.tsx'), 'LoginPage', 'login');
// The header's bell speaks from the first paint: its texts download beside the layout's code.
const ConsoleLayout = lazyPage(() => import('./console-layout.tsx'), 'ConsoleLayout', 'notices');
const BuyPage = lazyPage(() => import('../features/buy/components/buy-page.tsx'), 'BuyPage');
const OrdersPage = lazyPage(() => import('../features/orders/components/orders-page.tsx'), 'OrdersPage');
const DevicesPage = lazyPage(() => import('../features/devices/components/devices-page.tsx'), 'DevicesPage');
const InvitationsPage = lazyPage(
  () => import('../features/invitations/components/invitations-page.tsx'),
  'InvitationsPage',
);
const NodeStatusPage = lazyPage(
  () => import('../features/node-status/components/node-status-page.tsx'),
  'NodeStatusPage',
  'nodes',
);
const HelpRoute = lazyPage(() => import('./help-routes.tsx'), 'HelpRoute', 'help');
const HelpArticleRoute = lazyPage(() => import('./help-routes.tsx'), 'HelpArticleRoute', 'help');
const SupportPage = lazyPage(() => import('./support-route.tsx'), 'SupportRoute', ['support', 'help']);
const NotFoundPage = lazyPage(
  () => import('../features/not-found/components/not-found-page.tsx'),
  'NotFoundPage',
);

/** What a route carries for `preloadPage`: the download of its page or layout. */
interface RouteHandle {
  preload: () => void;
}

/** A leaf route whose failure shows inside its layout rather than replacing the whole screen. */
const page = (path: string, element: ReactElement, preload: () => void): RouteObject => ({
  path,
  element: <RouteBoundary>{element}</RouteBoundary>,
  handle: { preload } satisfies RouteHandle,
});

/** A legal document's route; each loads the shared page with its own document's text. */
function legalPage(document: LegalDocument): RouteObject {
  const LegalPage = lazyPage(() => import('../features/legal/components/legal-page.tsx'), 'LegalPage', [
    'legal',
    legalNamespace(document),
  ]);
  return page(`/${document}`, <LegalPage document={document} />, LegalPage.preload);
}

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
          page('/download', <DownloadPage />, DownloadPage.preload),
          legalPage('privacy'),
          legalPage('service'),
          legalPage('use'),
          page('/login', <LoginPage />, LoginPage.preload),
          page('/help', <HelpRoute />, HelpRoute.preload),
          page('/help/:slug', <HelpArticleRoute />, HelpArticleRoute.preload),
        ],
      },
      {
        element: (
          <RouteBoundary>
            <ConsoleLayout />
          </RouteBoundary>
        ),
        handle: { preload: ConsoleLayout.preload } satisfies RouteHandle,
        children: [
          page('/buy', <BuyPage />, BuyPage.preload),
          page('/order', <OrdersPage />, OrdersPage.preload),
          page('/devices', <DevicesPage />, DevicesPage.preload),
          page('/invite', <InvitationsPage />, InvitationsPage.preload),
          page('/nodes', <NodeStatusPage />, NodeStatusPage.preload),
          page('/support', <SupportPage />, SupportPage.preload),
          page('/404', <NotFoundPage />, NotFoundPage.preload),
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

/**
 * Starts downloading what the page at `pathname` needs (its layout, code and texts) while the app
 * itself starts, rather than once it renders; nothing for a path the guard turns away.
 */
export function preloadPage(pathname: string, signedIn: boolean): void {
  if (guardRedirect(pathname, signedIn) !== null) return;
  for (const { route } of matchRoutes(routes, pathname) ?? []) {
    (route.handle as RouteHandle | undefined)?.preload();
  }
}
