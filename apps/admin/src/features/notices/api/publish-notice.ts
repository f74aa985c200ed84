import { api } from '../../../lib/api-client.ts';

/** Publishes a notice now (mailing it, once, when it is to be mailed). */
export const publishNotice = (id: string) => api('POST', `/announcements/${id}/publish`, {});
