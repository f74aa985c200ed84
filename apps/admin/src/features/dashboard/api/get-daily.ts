import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { dailySchema } from '@skyway/shared/schemas/admin/dashboard';
import { api, query } from '../../../lib/api-client.ts';

export type Daily = z.infer<typeof dailySchema>;

/** The last 30 of the viewer's days, one figure set each; read again every 5 minutes while shown. */
export const useDaily = (enabled: boolean) =>
  useQuery({
    queryKey: ['dashboard', 'daily'],
    queryFn: () =>
      api<Daily>('GET', `/dashboard/daily${query({ tz_offset: new Date().getTimezoneOffset(), days: 30 })}`),
    enabled,
    refetchInterval: 300_000,
  });
