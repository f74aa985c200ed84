import { api } from '../../../lib/api-client.ts';

/** Mails an invited member a new set-up link. */
export const resendInvitation = (id: string) => api('POST', `/staff/${id}/invitation`, {});
