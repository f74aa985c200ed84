import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  Coupon,
  couponCreateRequest,
  CouponListQuery,
  couponListSchema,
  CouponUpdateRequest,
} from '@skyway/shared/schemas/admin/coupons';
import { api, query } from '../../../lib/api-client.ts';

export type { Coupon };
export type CouponFilters = Partial<CouponListQuery>;
export type CouponCreateBody = z.input<typeof couponCreateRequest>;

export const COUPONS_KEY = ['/coupons'];

/** The coupons that match, sorted by the server, with their uses and what they took off (asked only when the member may). */
export const useCoupons = (filters: CouponFilters, enabled: boolean) =>
  useQuery({
    queryKey: [...COUPONS_KEY, filters],
    queryFn: () => api<z.infer<typeof couponListSchema>>('GET', `/coupons${query(filters)}`),
    enabled,
    placeholderData: keepPreviousData,
  });

/** A new coupon: the typed code, or one the server generates when none is given. */
export const createCoupon = (body: CouponCreateBody) => api<Coupon>('POST', '/coupons', body);

/** New terms; the code stays. */
export const updateCoupon = (id: string, body: CouponUpdateRequest) =>
  api<Coupon>('PATCH', `/coupons/${id}`, body);

/** Pause, resume or end (for good). */
export const setCouponStatus = (id: string, action: 'pause' | 'resume' | 'end') =>
  api<Coupon>('POST', `/coupons/${id}/status`, { action });
