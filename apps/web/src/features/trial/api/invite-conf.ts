import type { InviteConf } from '@skyway/shared/invitations';
import { callApi } from '../../../lib/api-client.ts';

export type { InviteConf };

/** Spec section 8: its failure is only logged, so the api client shows nothing. */
export function fetchInviteConf(): Promise<InviteConf> {
  return callApi<InviteConf>('/web/invite/conf', {}, { silent: true });
}
