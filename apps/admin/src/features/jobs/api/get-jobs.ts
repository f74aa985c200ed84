import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { jobsSchema } from '@skyway/shared/schemas/admin/operations';
import { api } from '../../../lib/api-client.ts';

export type Jobs = z.infer<typeof jobsSchema>;

/** Each scheduled job and its latest runs, read again every 30 s while shown. */
export const useJobs = (enabled: boolean) =>
  useQuery({
    queryKey: ['/jobs'],
    queryFn: () => api<Jobs>('GET', '/jobs'),
    enabled,
    refetchInterval: 30_000,
  });
