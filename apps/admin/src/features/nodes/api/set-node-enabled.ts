import { api } from '../../../lib/api-client.ts';

/** Turns a node on or off. */
export const setNodeEnabled = (id: string, enabled: boolean) => api('PATCH', `/nodes/${id}`, { enabled });
