import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InviteList, TimeGrant } from '@skyway/shared/invitations';
import { callApi } from '../../../lib/api-client.ts';

export const INVITATIONS_QUERY_KEY = ['invitations'] as const;

export function fetchInvitations(page: number, size: number): Promise<InviteList> {
  return callApi<InviteList>('/web/invite/list', { page, size });
}

/** The api client stores the new `expire_user` of the reply itself. */
export function withdrawRewards(): Promise<TimeGrant> {
  return callApi<TimeGrant>('/web/invite/withdraw');
}

/** One page of the list; the previous page stays on screen while the next one loads. */
export function useInvitations(page: number, size: number) {
  return useQuery({
    queryKey: [...INVITATIONS_QUERY_KEY, page, size],
    queryFn: () => fetchInvitations(page, size),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

/** Withdraws every unclaimed minute, then reloads the list (its summary and claim statuses change). */
export function useWithdrawRewards() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: withdrawRewards,
    onSuccess: () => client.invalidateQueries({ queryKey: INVITATIONS_QUERY_KEY }),
  });
}
