import { callApi } from '../../../lib/api-client.ts';

/** Reply of `/web/invite/conf` (PRODUCT.md section 2); `open_trial` is the string "1" when open. */
export interface InviteConf {
  open_trial: string;
  trial_minute: number;
  invite_minute?: number;
}

/** Spec section 8: its failure is only logged, so the api client shows nothing. */
export function fetchInviteConf(): Promise<InviteConf> {
  return callApi<InviteConf>('/web/invite/conf', {}, { silent: true });
}
