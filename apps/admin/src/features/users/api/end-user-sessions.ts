import { api } from '../../../lib/api-client.ts';

/** Signs the account out everywhere. */
export const endUserSessions = (id: string) => api('DELETE', `/users/${id}/sessions`);
