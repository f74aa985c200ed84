import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InviteList, InvitedAccount, TimeGrant } from '@skyway/shared/invitations';
import { callApi } from '../../../lib/api-client.ts';

/** Rows are `InvitedAccount`s; `account` is masked by the server, `complete_time` in unix seconds. */
export type Invitation = InvitedAccount;
export type InvitationList = InviteList;
/** Reply of `/web/invite/withdraw`; the api client stores the new `expire_user` itself. */
export type WithdrawResult = TimeGrant;

export const INVITATIONS_QUERY_KEY = ['invitations'] as const;

export function fetchInvitations(page: number, size: number): Promise<InvitationList> {
  return callApi<InvitationList>('/web/invite/list', { page, size });
}

export function withdrawRewards(): Promise<WithdrawResult> {
  return callApi<WithdrawResult>('/web/invite/withdraw');
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
