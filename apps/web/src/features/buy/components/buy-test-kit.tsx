import { act, render } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ConfigProvider } from 'antd';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import type { Order, PlanList } from '@skyway/shared/plans';
import { BuyPage } from './buy-page.tsx';

export const PLAN_LIST: PlanList = {
  currency: 'CNY',
  max_connections: 10,
  plans: [
    { period: 'month', months: 1, days: 31, unit_price: 2500 },
    { period: 'half_year', months: 6, days: 183, unit_price: 13800 },
    { period: 'year', months: 12, days: 366, unit_price: 25800 },
  ],
  pay_methods: ['alipay', 'wechat_pay', 'card'],
};

export function order(fields: Partial<Order> = {}): Order {
  return {
    order_id: 'O1',
    period: 'month',
    months: 1,
    connections: 2,
    amount: 5000,
    currency: 'CNY',
    pay_method: 'card',
    status: 'unpaid',
    create_time: 1_800_000_000,
    pay_time: 0,
    latest_pay_time: 1_800_001_800,
    checkout_url: '/pay/sandbox/tok?l=us-en',
    ...fields,
  };
}

function Where() {
  const location = useLocation();
  return <output data-testid="where">{location.pathname + location.search}</output>;
}

/** The buy page at `url`, without motion so that a dialog's afterClose runs in happy-dom. */
export async function renderBuyPage(url = '/buy') {
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  await act(async () => {
    render(
      <QueryClientProvider client={client}>
        <ConfigProvider theme={{ token: { motion: false } }}>
          <MemoryRouter initialEntries={[url]}>
            <Routes>
              <Route
                path="/buy"
                element={
                  <>
                    <BuyPage />
                    <Where />
                  </>
                }
              />
            </Routes>
          </MemoryRouter>
        </ConfigProvider>
      </QueryClientProvider>,
    );
  });
  return client;
}
