import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TimeGrant } from '@skyway/shared/invitations';
import type { UserInfo } from '@skyway/shared/user';
import { ApiError } from '@skyway/shared/api-error';
import { callApi } from '../../../lib/api-client.ts';
import { USER_INFO_QUERY_KEY } from '../../../lib/user-info.ts';

/** The server's 409 reason for a second claim (PRODUCT.md section 2). */
const TRIAL_CLAIMED = 'trial_claimed';

/** A claim refused because this account has claimed the trial already (maybe in another tab). */
export function isAlreadyClaimed(error: unknown): error is ApiError {
  return error instanceof ApiError && error.code === 409 && error.reason === TRIAL_CLAIMED;
}

/**
 * Spec section 8: its failure is only logged, so the api client shows nothing. The api client stores
 * the new `expire_user` of the reply itself.
 */
export function claimTrial(): Promise<TimeGrant> {
  return callApi<TimeGrant>('/web/invite/claim', {}, { silent: true });
}

/**
 * Claims the trial; afterwards the user info is read again, so that the trial's state shows it is
 * claimed. On success that state shows at once: the trial's access ends at the expiry the claim
 * returned (it adds `trial_minute` from max(now, expiry)), before the fresh user info arrives.
 */
export function useClaimTrial() {
  const client = useQueryClient();
  const refreshUserInfo = () => client.invalidateQueries({ queryKey: USER_INFO_QUERY_KEY });
  return useMutation({
    mutationFn: claimTrial,
    onSuccess: (result) => {
      client.setQueryData<UserInfo>(
        USER_INFO_QUERY_KEY,
        (info) => info && { ...info, expire_user: result.expire_user, trial_end: result.expire_user },
      );
      void refreshUserInfo();
    },
    onError: (error) => {
      if (isAlreadyClaimed(error)) void refreshUserInfo();
    },
  });
}
