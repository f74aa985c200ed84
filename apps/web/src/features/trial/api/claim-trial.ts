import { useMutation } from '@tanstack/react-query';
import type { TimeGrant } from '@skyway/shared/invitations';
import { callApi } from '../../../lib/api-client.ts';

/** Reply of `/web/invite/claim`; the api client stores the new `expire_user` itself. */
export type ClaimResult = TimeGrant;

/** Spec section 8: its failure is only logged, so the api client shows nothing. */
export function claimTrial(): Promise<ClaimResult> {
  return callApi<ClaimResult>('/web/invite/claim', {}, { silent: true });
}

export function useClaimTrial() {
  return useMutation({ mutationFn: claimTrial });
}
