import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { dashboardSchema } from '@skyway/shared/schemas/admin/dashboard';
import { api, query } from '../../../lib/api-client.ts';

export type Dashboard = z.infer<typeof dashboardSchema>;

/** The business at a glance, in the viewer's days; read again every minute while shown. */
export const useDashboard = (enabled: boolean) =>
  useQuery({
    queryKey: ['dashboard'],
    queryFn: () => api<Dashboard>('GET', `/dashboard${query({ tz_offset: new Date().getTimezoneOffset() })}`),
    enabled,
    refetchInterval: 60_000,
  });
