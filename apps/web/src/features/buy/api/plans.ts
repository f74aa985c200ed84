import { useQuery } from '@tanstack/react-query';
import type { PlanList } from '@skyway/shared/plans';
import { callApi } from '../../../lib/api-client.ts';

export const PLANS_QUERY_KEY = ['plans'] as const;

/** The periods on sale with their unit prices in fen per connection, and the most connections. */
export function fetchPlans(): Promise<PlanList> {
  return callApi<PlanList>('/web/plan/list');
}

export function usePlans() {
  return useQuery({ queryKey: PLANS_QUERY_KEY, queryFn: fetchPlans });
}
