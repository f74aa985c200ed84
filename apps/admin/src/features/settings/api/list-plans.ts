import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { planAdminSchema } from '@skyway/shared/schemas/admin/settings';
import { api } from '../../../lib/api-client.ts';

export type Plan = z.infer<typeof planAdminSchema>;

export const PLANS_KEY = ['/plans'];

/** The plans and their prices. */
export const usePlans = () => useQuery({ queryKey: PLANS_KEY, queryFn: () => api<Plan[]>('GET', '/plans') });
