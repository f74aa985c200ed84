import { api } from '../../../lib/api-client.ts';

/** Revokes the node's agent token. */
export const revokeNodeToken = (id: string) => api('DELETE', `/nodes/${id}/token`);
