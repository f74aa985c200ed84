import { api } from '../../../lib/api-client.ts';

/** Removes an inbound. */
export const deleteInbound = (id: string) => api('DELETE', `/inbounds/${id}`);
