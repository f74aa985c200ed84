import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render } from '@testing-library/react';
import { ConfigProvider } from 'antd';
import { Suspense, useLayoutEffect, type ReactElement } from 'react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter, type Location, type RouteObject, useLocation, useRoutes } from 'react-router';
import { queryClient as appQueryClient } from '../app/query-client.ts';
import { AntdProvider } from '../components/antd-provider.tsx';
import { loadAntdLocale } from '../lib/antd-locale.ts';
import { i18n } from '../lib/i18n.ts';
import { currentLanguage } from '../lib/language.ts';

// antd's locale loads once, slowly: before the tests start rather than within the first one's time.
await loadAntdLocale(currentLanguage());

export interface RenderOptions {
  /** Where the router starts. */
  url?: string;
  /** A query client the test reads or fills; otherwise a new one. */
  queryClient?: QueryClient;
}

export interface Rendered {
  queryClient: QueryClient;
  /** The path and query the router is at now, as the address bar would show them. */
  location: () => string;
}

/** A query client with the app's defaults and nothing cached. */
export function newQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: appQueryClient.getDefaultOptions() });
}

function AppRoutes({
  routes,
  onLocation,
}: {
  routes: RouteObject[];
  onLocation: (location: Location) => void;
}) {
  const location = useLocation();
  useLayoutEffect(() => {
    onLocation(location);
  }, [location, onLocation]);
  return useRoutes(routes);
}

/**
 * Renders `page` at every path, or the given routes, at `url`, inside the providers the app puts
 * around its pages: i18n, TanStack Query, antd's theme and locale, and a router. antd runs without
 * motion, so that a closed dialog leaves the page and its afterClose runs in happy-dom.
 */
export async function renderWithProviders(
  page: ReactElement | RouteObject[],
  { url = '/', queryClient = newQueryClient() }: RenderOptions = {},
): Promise<Rendered> {
  const routes = Array.isArray(page) ? page : [{ path: '*', element: page }];
  let current: Location | undefined;
  const onLocation = (location: Location) => (current = location);
  // Loaded before the render, which would otherwise show nothing until it has.
  await loadAntdLocale(currentLanguage());
  await act(async () => {
    render(
      <I18nextProvider i18n={i18n}>
        <QueryClientProvider client={queryClient}>
          <Suspense fallback={null}>
            <AntdProvider>
              <ConfigProvider theme={{ token: { motion: false } }}>
                <MemoryRouter initialEntries={[url]}>
                  <AppRoutes routes={routes} onLocation={onLocation} />
                </MemoryRouter>
              </ConfigProvider>
            </AntdProvider>
          </Suspense>
        </QueryClientProvider>
      </I18nextProvider>,
    );
  });
  return {
    queryClient,
    location: () => (current ? current.pathname + current.search : ''),
  };
}
