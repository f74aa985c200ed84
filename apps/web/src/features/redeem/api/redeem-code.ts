import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Redeemed } from '@skyway/shared/redeem-codes';
import { callApi } from '../../../lib/api-client.ts';

/**
 * `/web/redeem`; its refusal (an invalid code, the lock) is shown in the dialog, not as a toast. The
 * api client stores the new `expire_user` of the reply itself.
 */
export function redeemCode(code: string): Promise<Redeemed> {
  return callApi<Redeemed>('/web/redeem', { code }, { silent: true });
}

/** Redeems a code; afterwards every query is read again: the account's access and its orders changed. */
export function useRedeemCode() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: redeemCode,
    onSuccess: () => void client.invalidateQueries(),
  });
}
