import { api } from '../../../lib/api-client.ts';

/** Stops showing a notice to customers at once. */
export const takeDownNotice = (id: string) => api('POST', `/announcements/${id}/take-down`, {});
