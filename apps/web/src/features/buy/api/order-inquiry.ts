import { useQuery } from '@tanstack/react-query';
import type { Order } from '@skyway/shared/plans';
import { callApi } from '../../../lib/api-client.ts';

export const ORDER_QUERY_KEY = ['order'] as const;

/** How often the inquiry asks again while an order is unpaid (README "Payment inquiry"). */
export const POLL_INTERVAL_MS = 2000;

/** One order with its status read fresh; someone else's order is 404. */
export function fetchOrder(orderId: string): Promise<Order> {
  return callApi<Order>('/web/order/query', { order_id: orderId });
}

/**
 * The order, asked for again every POLL_INTERVAL_MS while `poll` is on and it is unpaid. A failed
 * call stops the polling, so that a broken server is not toasted every two seconds.
 */
export function useOrderInquiry(orderId: string, poll: boolean) {
  return useQuery({
    queryKey: [...ORDER_QUERY_KEY, orderId],
    queryFn: () => fetchOrder(orderId),
    staleTime: 0,
    gcTime: 0,
    refetchInterval: (query) =>
      poll && query.state.status === 'success' && query.state.data?.status === 'unpaid'
        ? POLL_INTERVAL_MS
        : false,
  });
}
