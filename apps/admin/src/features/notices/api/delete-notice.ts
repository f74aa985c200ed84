import { api } from '../../../lib/api-client.ts';

/** Deletes a notice for good (the audit log keeps what it said). */
export const deleteNotice = (id: string) => api('DELETE', `/announcements/${id}`);
