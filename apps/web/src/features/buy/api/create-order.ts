import { useMutation } from '@tanstack/react-query';
import type { CreatedOrder, OrderCreateRequest } from '@skyway/shared/plans';
import { callApi } from '../../../lib/api-client.ts';

/** The server prices the order itself; its reply says where to pay. A newer order cancels an open one. */
export function createOrder(request: OrderCreateRequest): Promise<CreatedOrder> {
  return callApi<CreatedOrder>('/web/order/create', request);
}

export function useCreateOrder() {
  return useMutation({ mutationFn: createOrder });
}
