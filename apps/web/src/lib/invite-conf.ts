import type { InviteConf } from '@skyway/shared/invitations';
import { callApi } from './api-client.ts';

export type { InviteConf };

/**
 * The invitation config (`/web/invite/conf`). In lib rather than a feature: the trial, the
 * invitations page and the download page's prices read it, and features may not import each other.
 * Spec section 8: its failure is only logged, so the api client shows nothing.
 */
export function fetchInviteConf(): Promise<InviteConf> {
  return callApi<InviteConf>('/web/invite/conf', {}, { silent: true });
}
