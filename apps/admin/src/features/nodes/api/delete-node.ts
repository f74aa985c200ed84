import { api } from '../../../lib/api-client.ts';

/** Removes a node and its inbounds. */
export const deleteNode = (id: string) => api('DELETE', `/nodes/${id}`);
