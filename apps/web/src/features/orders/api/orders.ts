import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { NoFields } from '@skyway/shared/envelope';
import type { OrderList } from '@skyway/shared/plans';
import { callApi } from '../../../lib/api-client.ts';

export const ORDERS_QUERY_KEY = ['orders'] as const;

/** One page of the user's orders, newest first. */
export function fetchOrders(page: number, size: number): Promise<OrderList> {
  return callApi<OrderList>('/web/order/list', { page, size });
}

/** Only an unpaid order can be cancelled; any other answers 409, which the api client shows. */
export function cancelOrder(orderId: string): Promise<NoFields> {
  return callApi<NoFields>('/web/order/cancel', { order_id: orderId });
}

/** One page of the list; the previous page stays on screen while the next one loads. */
export function useOrders(page: number, size: number) {
  return useQuery({
    queryKey: [...ORDERS_QUERY_KEY, page, size],
    queryFn: () => fetchOrders(page, size),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

/** Cancels an order, then reloads the list, whichever way the call ended (a 409 means it changed). */
export function useCancelOrder() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: cancelOrder,
    onSettled: () => client.invalidateQueries({ queryKey: ORDERS_QUERY_KEY }),
  });
}
