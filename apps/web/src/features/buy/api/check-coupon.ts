import { useQuery } from '@tanstack/react-query';
import type { Period } from '@skyway/shared/plans';
import type { CouponCheck } from '@skyway/shared/schemas/coupons';
import { callApi } from '../../../lib/api-client.ts';

/**
 * The server's preview of a coupon for this plan and these connections: the price before and after,
 * or its refusal (an ApiError with the server's localized message, shown beside the field, no toast).
 */
export function checkCoupon(request: {
  code: string;
  period: Period;
  connections: number;
}): Promise<CouponCheck> {
  return callApi<CouponCheck>('/web/coupon/check', request, { silent: true });
}

/** The applied code's preview, asked again when the plan or the connections change; off without a code. */
export function useCouponCheck(code: string | null, period: Period, connections: number) {
  return useQuery({
    queryKey: ['coupon-check', code, period, connections],
    queryFn: () => checkCoupon({ code: code ?? '', period, connections }),
    enabled: code !== null,
    retry: false,
    staleTime: 60_000,
  });
}
