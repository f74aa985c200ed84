import type { QueryClient } from '@tanstack/react-query';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, render } from '@testing-library/react';
import { App as AntdApp, ConfigProvider } from 'antd';
import enUS from 'antd/locale/en_US';
import type { ReactElement } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { newQueryClient } from '../app/query-client.ts';

export interface RenderOptions {
  /** Where the router starts. */
  url?: string;
  /** The route pattern the screen is mounted at, for its params (`/users/:id`). */
  path?: string;
}

/**
 * Renders a screen inside the providers the app puts around it: TanStack Query (nothing cached),
 * antd's theme, locale and message host, and a router. antd runs without motion, so that a closed
 * dialog leaves the page in happy-dom.
 */
export async function renderScreen(
  screen: ReactElement,
  { url = '/', path = '*' }: RenderOptions = {},
): Promise<{ queryClient: QueryClient }> {
  const queryClient = newQueryClient();
  await act(async () => {
    render(
      <QueryClientProvider client={queryClient}>
        <ConfigProvider locale={enUS} theme={{ token: { motion: false } }}>
          <AntdApp>
            <MemoryRouter initialEntries={[url]}>
              <Routes>
                <Route path={path} element={screen} />
              </Routes>
            </MemoryRouter>
          </AntdApp>
        </ConfigProvider>
      </QueryClientProvider>,
    );
  });
  return { queryClient };
}
